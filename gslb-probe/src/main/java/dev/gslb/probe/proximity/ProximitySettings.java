package dev.gslb.probe.proximity;

import java.time.Duration;

/**
 * The proximity table's TTLs (F5's defaults) and bounds: paths older than {@code pathTtl} are not
 * used for RTT; an unprobeable LDNS is retried after {@code retry}; an LDNS that asked nothing for
 * {@code inactiveTtl} is removed; at most {@code maxLdns} entries are kept, and one source network
 * may add at most {@code newPerNetwork} a second (burst {@code newPerNetworkBurst}).
 */
public record ProximitySettings(
        Duration pathTtl,
        Duration retry,
        Duration inactiveTtl,
        int maxLdns,
        int newPerNetwork,
        int newPerNetworkBurst) {
    public static final ProximitySettings DEFAULTS = new ProximitySettings(
            Duration.ofMinutes(40), Duration.ofMinutes(2), Duration.ofDays(28), 1_000_000, 10, 256);

    public ProximitySettings {
        if (maxLdns < 1 || newPerNetwork < 1 || newPerNetworkBurst < 1) {
            throw new IllegalArgumentException("max-ldns and the new-LDNS rate must be at least 1");
        }
    }

    /**
     * The age past which the path of an LDNS in use is measured again: half the path TTL, so it
     * never goes stale while in use. This side's scheduler and the requests to peers both use it.
     */
    public long refreshAfterMillis() {
        return pathTtl.toMillis() / 2;
    }

    /** These settings with another cap on the table. */
    public ProximitySettings withMaxLdns(int max) {
        return new ProximitySettings(pathTtl, retry, inactiveTtl, max, newPerNetwork, newPerNetworkBurst);
    }

    /** These settings with another rate of new entries per source network. */
    public ProximitySettings withNewPerNetwork(int perSecond, int burst) {
        return new ProximitySettings(pathTtl, retry, inactiveTtl, maxLdns, perSecond, burst);
    }
}
