package dev.gslb.dns.method;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.settings.Bounds;

/**
 * The same answer for the same network: the client subnet (or LDNS address) cut to a prefix
 * (default /24 and /56) is hashed onto the available members, so it stays put while they do.
 */
public final class StaticPersistence implements LoadBalancingMethod {
    /** The network sizes a client is kept by (config {@code load-balancing.persistence-prefix-v4/-v6}). */
    public record Settings(int prefixV4, int prefixV6) {
        public static final Settings DEFAULTS = new Settings(24, 56);

        public Settings {
            Bounds.within("persistence-prefix-v4", prefixV4, 1, 32);
            Bounds.within("persistence-prefix-v6", prefixV6, 1, 128);
        }

        /** Its keys under {@code load-balancing:}; an absent key keeps its default. */
        @JsonCreator
        public static Settings bind(
                @JsonProperty("persistence-prefix-v4") Integer prefixV4,
                @JsonProperty("persistence-prefix-v6") Integer prefixV6) {
            return new Settings(
                    requireNonNullElse(prefixV4, DEFAULTS.prefixV4()),
                    requireNonNullElse(prefixV6, DEFAULTS.prefixV6()));
        }
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
