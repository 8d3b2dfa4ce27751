package dev.gslb.dns.method;

import dev.gslb.site.VirtualServer;

/**
 * What the quality-of-service method reads of a candidate besides its paths: the headroom of the
 * link that reaches it and whether a monitor confirmed it up. Read on the query path: lock-free.
 */
public interface CandidateLoad {
    /** Capacity minus the busier direction's smoothed traffic, in bit/s; -1 when not known. */
    long linkHeadroomBps(VirtualServer vs);

    /** True when a monitor (this instance's, or a peer's) saw {@code vs} UP; false while only unknown. */
    boolean confirmedUp(VirtualServer vs);

    /** Nothing known: no headroom, nothing confirmed (configuration checks, tests). */
    CandidateLoad NONE = new CandidateLoad() {
        @Override
        public long linkHeadroomBps(VirtualServer vs) {
            return -1;
        }

        @Override
        public boolean confirmedUp(VirtualServer vs) {
            return false;
        }
    };
}
