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
        boolean ecs = q.hasClientSubnet();
        boolean v4 = q.placeV4();
        int prefix = v4 ? prefixV4 : prefixV6;
        if (ecs) {
            prefix = Math.min(prefix, q.ecsPrefix);
            q.scope = Math.max(q.scope, prefix);
        }
        int bits = v4 ? prefix + 96 : prefix; // IPv4 lives in the low 32 bits of the 128-bit form
        long hi = q.placeHi();
        long lo = q.placeLo();
        long hiMask = bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
        long loMask = bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
        long h = (hi & hiMask) * 0x9E3779B97F4A7C15L ^ (lo & loMask) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return c.pick((int) Math.floorMod(h, c.size()));
    }
}
