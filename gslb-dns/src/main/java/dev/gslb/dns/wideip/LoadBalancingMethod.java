package dev.gslb.dns.wideip;

/** One way of choosing the virtual server a wide IP answers; methods are composed into a chain. */
public interface LoadBalancingMethod {
    /**
     * Picks the member of {@code pool} to answer for a query of {@code recordType} (A or AAAA), or
     * null when this method cannot decide and the next one in the chain should.
     */
    VirtualServer pick(Pool pool, int recordType);
}
