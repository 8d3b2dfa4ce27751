package dev.gslb.dns.wideip;

import java.util.List;

/** Runs the method chain over a wide IP's pools, in pool order, until one method decides. */
public final class WideIpResolver {
    private final List<LoadBalancingMethod> chain;

    public WideIpResolver(List<LoadBalancingMethod> chain) {
        this.chain = List.copyOf(chain);
    }

    /** The virtual server to answer, or null when no pool has a member of this record type. */
    public VirtualServer resolve(WideIp wideIp, int recordType) {
        for (Pool pool : wideIp.pools()) {
            for (LoadBalancingMethod method : chain) {
                VirtualServer vs = method.pick(pool, recordType);
                if (vs != null) {
                    return vs;
                }
            }
        }
        return null;
    }
}
