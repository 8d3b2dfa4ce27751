package dev.gslb.dns.method;

/**
 * One way of choosing the virtual server a pool answers. Methods are composed per pool
 * (preferred, alternate, fallback); each either picks (putting its choice first in the
 * candidates), passes to the next, or ends the query its own way (drop, return to DNS, fallback
 * IP). Called on the query path: no blocking, and no allocation when nothing is traced.
 */
public interface LoadBalancingMethod {
    /** The F5 name, as written in the config (lowest-round-trip-time, topology, ...). */
    String name();

    /** True for methods that read measured paths; F5 allows them as preferred or fallback only. */
    default boolean usesPathMetrics() {
        return false;
    }

    /**
     * The load metrics this method reads: every member of a pool that runs it needs a source of
     * each under its {@code load:} (a configuration error otherwise: it would always pass).
     */
    default java.util.Set<dev.gslb.probe.load.Metric> readsLoad() {
        return java.util.Set.of();
    }

    Outcome decide(Candidates candidates, QueryContext query);
}
