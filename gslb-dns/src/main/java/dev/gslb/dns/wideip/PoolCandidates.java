package dev.gslb.dns.wideip;

import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.ServerState;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Gathers one pool's candidates for a query: its members of the asked type that are available
 * and not disabled or drained (by themselves or as members of this pool); those whose link or
 * load is over a limit are set aside and become the candidates only when no other is left.
 * Allocation-free (the caller owns both lists).
 */
final class PoolCandidates {
    private final Counter allOverLimit;

    PoolCandidates(MeterRegistry registry) {
        this.allOverLimit = Counter.builder("link_all_over_limit")
                .description(
                        "Pool decisions where every available candidate's link was over its limit (answered anyway)")
                .register(registry);
    }

    /**
     * Fills {@code c} with the pool's candidates (using {@code spilled} for those set aside) and
     * returns how many were available and not set aside.
     */
    int gather(Pool pool, SiteState state, QueryContext q, Candidates c, Candidates spilled) {
        c.reset();
        spilled.reset();
        for (VirtualServer vs : pool.members()) {
            if (vs.recordType() == q.recordType()) {
                ServerState st = state.at(vs);
                RuntimeState memberSet = state.member(pool.name(), vs.name());
                RuntimeState set = memberSet != null ? memberSet : st.set();
                boolean up = st.available() && set == null;
                String over = st.spillReason();
                if (set != null) {
                    // disabled or drained: not a candidate for a new answer
                } else if (over != null) {
                    spilled.add(vs, st);
                } else if (up) {
                    c.add(vs, st);
                }
                if (q.trace() != null) {
                    q.trace()
                            .note(
                                    "candidates",
                                    pool.name() + ": " + vs.name() + " "
                                            + vs.address().getHostAddress() + " ("
                                            + vs.dataCenter().name() + ") "
                                            + (set != null
                                                    ? set.describe()
                                                    : over != null ? over : up ? "available" : unavailable(st)));
                }
            }
        }
        int available = c.size();
        if (c.isEmpty() && !spilled.isEmpty()) { // a full link is better than no answer
            for (int i = 0; i < spilled.size(); i++) {
                c.add(spilled.get(i), spilled.state(i));
            }
            allOverLimit.increment();
            if (q.trace() != null) {
                q.trace()
                        .note(
                                "candidates",
                                pool.name() + ": every available candidate's link is over its limit;"
                                        + " answering as if none were");
            }
        }
        return available;
    }

    private static String unavailable(ServerState st) {
        return st.heldReason() == null ? "unavailable" : "unavailable: " + st.heldReason();
    }
}
