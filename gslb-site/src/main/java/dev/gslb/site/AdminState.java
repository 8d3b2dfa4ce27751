package dev.gslb.site;

/**
 * What an operator set at run time (README "Maintenance"), from the least to the most restrictive:
 * a thing inherits the strictest state of what contains it (a data center's, a link's).
 */
public enum AdminState {
    /** The default: a candidate when its health allows. */
    ENABLED,
    /** No new clients; a network that persistence already sends there keeps it until its persistence ends. */
    DRAINED,
    /** Never a candidate. */
    DISABLED;

    /** The stricter of this and {@code other}; null counts as enabled. */
    public AdminState strictest(AdminState other) {
        return other != null && other.ordinal() > ordinal() ? other : this;
    }

    /** As commands and JSON write it: {@code enabled}, {@code drained}, {@code disabled}. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
