package dev.gslb.dns.wideip;

import dev.gslb.site.VirtualServer;

/** Whether a virtual server may be answered now. Read on the query path: must not block. */
@FunctionalInterface
public interface MemberHealth {
    boolean available(VirtualServer vs);

    /**
     * Why {@code vs} should get no new answers although available (its link is over its traffic
     * limit), or null. A precomputed text: the query path builds none.
     */
    default String overLimit(VirtualServer vs) {
        return null;
    }

    MemberHealth ALL_AVAILABLE = vs -> true;
}
