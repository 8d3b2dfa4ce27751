package dev.gslb.probe.proximity;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * The proximity table's TTLs (F5's defaults) and bounds: paths older than {@code pathTtl} are not
 * used for RTT; an unprobeable LDNS is retried after {@code retry}; an LDNS that asked nothing for
 * {@code inactiveTtl} is removed; at most {@code maxLdns} entries are kept, and one source network
 * may add at most {@code newPerNetwork} a second (burst {@code newPerNetworkBurst}, at least
 * {@value #MIN_BURST} from the file).
 */
public record ProximitySettings(
        Duration pathTtl,
        Duration retry,
        Duration inactiveTtl,
        int maxLdns,
        int newPerNetwork,
        int newPerNetworkBurst) {
    public static final int MIN_BURST = 256;

    public static final Setting<Duration> PATH_TTL = Setting.duration(
            "path-ttl",
            Duration.ofMinutes(40),
            "older paths are not used for RTT; re-probed at half of it (F5 default)");
    public static final Setting<Duration> RETRY = Setting.duration(
            "retry", Duration.ofMinutes(2), "an unprobeable LDNS is tried again after this (F5 default)");
    public static final Setting<Duration> INACTIVE_TTL = Setting.duration(
            "inactive-ttl", Duration.ofDays(28), "an LDNS that asked nothing this long is removed (F5 default)");
    public static final Setting<Integer> MAX_LDNS = Setting.integer(
            "max-ldns", 1_000_000, 1, 100_000_000, "proximity table cap; never-measured entries give way first");
    public static final Setting<Integer> NEW_PER_NETWORK = Setting.integer(
            "new-ldns-per-network", 10, 1, 1_000_000, "new LDNS one network (/24, /48) may add a second (burst 256)");

    public static final SettingsTable<ProximitySettings> SETTINGS = SettingsTable.of(
                    ProximitySettings.class,
                    v -> new ProximitySettings(
                            v.get(PATH_TTL),
                            v.get(RETRY),
                            v.get(INACTIVE_TTL),
                            v.get(MAX_LDNS),
                            v.get(NEW_PER_NETWORK),
                            Math.max(MIN_BURST, v.get(NEW_PER_NETWORK))))
            .add(PATH_TTL, ProximitySettings::pathTtl)
            .add(RETRY, ProximitySettings::retry)
            .add(INACTIVE_TTL, ProximitySettings::inactiveTtl)
            .add(MAX_LDNS, ProximitySettings::maxLdns)
            .add(NEW_PER_NETWORK, ProximitySettings::newPerNetwork);

    public static final ProximitySettings DEFAULTS = SETTINGS.defaults();

    /**
     * How old this instance's path may get before an LDNS in use is measured again: half the path
     * TTL, so the path never goes stale while in use.
     */
    public long reprobeAfterMillis() {
        return reprobeAfterMillis(pathTtl);
    }

    /** The same rule for paths kept {@code pathTtl} (what a peer is sent). */
    public static long reprobeAfterMillis(Duration pathTtl) {
        return pathTtl.toMillis() / 2;
    }

    /** These settings with another cap on the table. */
    public ProximitySettings withMaxLdns(int max) {
        return SETTINGS.with(this, MAX_LDNS, max).withNewPerNetwork(newPerNetwork, newPerNetworkBurst);
    }

    /** These settings with another rate of new entries per source network (and burst, not bound below). */
    public ProximitySettings withNewPerNetwork(int perSecond, int burst) {
        return new ProximitySettings(pathTtl, retry, inactiveTtl, maxLdns, perSecond, burst);
    }
}
