package dev.gslb.site;

/**
 * What an operator set at run time (docs/operator-guide.md "Take something out of service"), from
 * the least to the most restrictive (the order {@link RuntimeStates#on} compares): a server
 * inherits the strictest state of what contains it (its data center's, its link's).
 */
public enum AdminState {
    /** The default: a candidate when its health allows. */
    ENABLED,
    /** No new clients; a network that persistence already sends there keeps it until its persistence ends. */
    DRAINED,
    /** Never a candidate. */
    DISABLED;

    /** As commands and JSON write it: {@code enabled}, {@code drained}, {@code disabled}. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
