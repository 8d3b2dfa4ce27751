package dev.gslb.site;

/**
 * A link as last measured by the instance on it: gateway state, smoothed traffic (-1: unknown),
 * whether it is over its limit and why. Immutable; swapped whole when a poll or check changes it.
 *
 * @param overLimitReason the text `resolve --explain` shows while over the limit, else null
 */
public record LinkState(
        String name,
        HealthState state,
        long inBps,
        long outBps,
        String overLimitReason,
        long measuredAt,
        String measuredBy,
        String reason) {

    public boolean overLimit() {
        return overLimitReason != null;
    }

    public static LinkState unknown(String name) {
        return new LinkState(name, HealthState.UNKNOWN, -1, -1, null, 0, null, "not measured yet");
    }
}
