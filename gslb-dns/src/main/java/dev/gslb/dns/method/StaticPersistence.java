package dev.gslb.dns.method;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;

/**
 * The same answer for the same network: the client subnet (or LDNS address) cut to a prefix
 * (default /24 and /56) is hashed onto the available members, so it stays put while they do.
 */
public final class StaticPersistence implements LoadBalancingMethod {
    /** The network sizes a client is kept by (config {@code load-balancing.persistence-prefix-v4/-v6}). */
    public record Settings(int prefixV4, int prefixV6) {
        public static final Setting<Integer> PREFIX_V4 = Setting.integer(
                "persistence-prefix-v4", 24, 1, 32, "static-persistence and persistence-ttl IPv4 network size");
        public static final Setting<Integer> PREFIX_V6 =
                Setting.integer("persistence-prefix-v6", 56, 1, 128, "the same for IPv6");

        /** Its keys under {@code load-balancing:}. */
        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(Settings.class, PREFIX_V4, PREFIX_V6);

        public static final Settings DEFAULTS = SETTINGS.defaults();
    }

    private final int prefixV4;
    private final int prefixV6;

    public StaticPersistence(Settings settings) {
        this.prefixV4 = settings.prefixV4();
        this.prefixV6 = settings.prefixV6();
    }

    @Override
    public String name() {
        return "static-persistence";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        if (c.isEmpty()) {
            return Outcome.PASS;
        }
        q.scopeAtLeast(prefixV4, prefixV6);
        long h = q.networkHi(prefixV4, prefixV6) * 0x9E3779B97F4A7C15L
                ^ q.networkLo(prefixV4, prefixV6) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return c.pick((int) Math.floorMod(h, c.size()));
    }
}
