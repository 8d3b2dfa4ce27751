package dev.gslb.dns.wideip;

/** The first member, in configured order, that can answer this record type (the source's third step). */
public final class GlobalAvailability implements LoadBalancingMethod {
    @Override
    public VirtualServer pick(Pool pool, int recordType) {
        for (VirtualServer vs : pool.members()) {
            if (vs.recordType() == recordType) {
                return vs;
            }
        }
        return null;
    }
}
