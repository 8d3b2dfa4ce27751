package dev.gslb.dns.wideip;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.Collections;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * A name inside a served zone whose A/AAAA answer is chosen by load balancing (F5 "wide IP").
 *
 * @param pools       its pools as listed, the last-resort pool among them
 * @param poolMethod  which pool is tried first (see {@link PoolMethod}); the others follow
 * @param decisionLog log every decision for this wide IP (F5's load-balancing decision log)
 * @param persistTtl  seconds a client network keeps the server it was answered with (0: no persistence)
 * @param ratios      each pool's weight under {@link PoolMethod#RATIO}, as {@code pools} (0: never chosen by ratio)
 * @param lastResort  the index in {@code pools} of the pool tried only when every other gave nothing, or -1
 */
public record WideIp(
        Name name,
        List<Pool> pools,
        PoolMethod poolMethod,
        long ttl,
        Failure failure,
        boolean decisionLog,
        long persistTtl,
        List<Integer> ratios,
        int lastResort) {
    /** F5's default wide-IP TTL. */
    public static final long DEFAULT_TTL = 30;

    /** The largest ratio of a pool: the sum of a wide IP's ratios stays far from overflowing. */
    public static final int MAX_RATIO = 1_000_000;

    /** Which pool a query tries first; when it passes, the others follow. */
    public enum PoolMethod {
        /** The first pool as listed, then the next (F5's default). */
        GLOBAL_AVAILABILITY,
        /** Each query starts one pool further, the listing rotated. */
        ROUND_ROBIN,
        /** A pool in proportion to its ratio first, then the others as listed. */
        RATIO,
        /** The pool scoring best for the client in the topology table first, then the others as listed. */
        TOPOLOGY;

        /** As the config writes it: {@code global-availability}, {@code round-robin}, {@code ratio} or {@code topology}. */
        @JsonCreator
        public static PoolMethod parse(String text) {
            return switch (text) {
                case "global-availability" -> GLOBAL_AVAILABILITY;
                case "round-robin" -> ROUND_ROBIN;
                case "ratio" -> RATIO;
                case "topology" -> TOPOLOGY;
                default ->
                    throw new IllegalArgumentException(
                            "pool-method must be global-availability, round-robin, ratio or topology, not '" + text
                                    + "'");
            };
        }

        /** As the config writes it. */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public WideIp {
        pools = List.copyOf(pools);
        ratios = List.copyOf(ratios);
        if (!name.isAbsolute()) {
            throw new IllegalArgumentException("wide IP name must be absolute: " + name);
        }
        if (ratios.size() != pools.size()) {
            throw new IllegalArgumentException("wide IP " + name + ": one ratio per pool");
        }
        for (int i = 0; i < ratios.size(); i++) {
            if (ratios.get(i) < 0 || ratios.get(i) > MAX_RATIO) {
                throw new IllegalArgumentException(
                        "wide IP " + name + ": pool " + pools.get(i).name() + "'s ratio must be between 0 and "
                                + MAX_RATIO + ", not " + ratios.get(i));
            }
        }
        if (lastResort < -1 || lastResort >= pools.size()) {
            throw new IllegalArgumentException("wide IP " + name + ": no pool " + lastResort + " for the last resort");
        }
    }

    public WideIp(
            Name name,
            List<Pool> pools,
            PoolMethod poolMethod,
            long ttl,
            Failure failure,
            boolean decisionLog,
            long persistTtl) {
        this(name, pools, poolMethod, ttl, failure, decisionLog, persistTtl, Collections.nCopies(pools.size(), 1), -1);
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

    /** The pool tried only when every other gave nothing, or null. */
    public Pool lastResortPool() {
        return lastResort < 0 ? null : pools.get(lastResort);
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
