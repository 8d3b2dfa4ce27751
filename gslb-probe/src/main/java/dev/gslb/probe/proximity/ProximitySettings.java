package dev.gslb.probe.proximity;

import java.time.Duration;

/**
 * The proximity table's TTLs (F5's defaults): paths older than {@code pathTtl} are not used for
 * RTT; an unprobeable LDNS is retried after {@code retry}; an LDNS that asked nothing for
 * {@code inactiveTtl} is removed.
 */
public record ProximitySettings(Duration pathTtl, Duration retry, Duration inactiveTtl) {
    public static final ProximitySettings DEFAULTS =
            new ProximitySettings(Duration.ofSeconds(2400), Duration.ofSeconds(120), Duration.ofSeconds(2_419_200));
}
