package dev.gslb.dns.wideip;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * A name inside a served zone whose A/AAAA answer is chosen by load balancing (F5 "wide IP").
 *
 * @param poolMethod  how pools are tried: in order (global availability) or rotating (round robin)
 * @param decisionLog log every decision for this wide IP (F5's load-balancing decision log)
 * @param persistTtl  seconds a client network keeps the server it was answered with (0: no persistence)
 */
public record WideIp(
        Name name,
        List<Pool> pools,
        PoolMethod poolMethod,
        long ttl,
        Failure failure,
        boolean decisionLog,
        long persistTtl) {
    /** F5's default wide-IP TTL. */
    public static final long DEFAULT_TTL = 30;

    public enum PoolMethod {
        GLOBAL_AVAILABILITY,
        ROUND_ROBIN;

        /** As the config writes it: {@code global-availability} or {@code round-robin}. */
        @JsonCreator
        public static PoolMethod parse(String text) {
            return switch (text) {
                case "global-availability" -> GLOBAL_AVAILABILITY;
                case "round-robin" -> ROUND_ROBIN;
                default -> throw new IllegalArgumentException("pool-method must be global-availability or round-robin");
            };
        }
    }

    public WideIp {
        pools = List.copyOf(pools);
        if (!name.isAbsolute()) {
            throw new IllegalArgumentException("wide IP name must be absolute: " + name);
        }
    }

    public WideIp(Name name, List<Pool> pools, long ttl) {
        this(name, pools, PoolMethod.GLOBAL_AVAILABILITY, ttl, Failure.DEFAULT, false, 0);
    }

    /** True when a CNAME pool may answer: then every question for the name waits for the decision. */
    public boolean answersCname() {
        for (int i = 0; i < pools.size(); i++) {
            if (pools.get(i).cnames() != null) {
                return true;
            }
        }
        return false;
    }

    /** True when a pool reads measured paths (RTT, completion rate, hops, QoS): only then is the LDNS probed. */
    public boolean usesPathMetrics() {
        for (int i = 0; i < pools.size(); i++) { // indexed: asked per query, and an iterator is an object
            if (pools.get(i).usesPathMetrics()) {
                return true;
            }
        }
        return false;
    }
}
