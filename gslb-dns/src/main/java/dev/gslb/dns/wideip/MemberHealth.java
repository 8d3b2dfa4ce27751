package dev.gslb.dns.wideip;

import dev.gslb.dns.site.VirtualServer;

/** Whether a virtual server may be answered now. Read on the query path: must not block. */
@FunctionalInterface
public interface MemberHealth {
    boolean available(VirtualServer vs);

    MemberHealth ALL_AVAILABLE = vs -> true;
}
