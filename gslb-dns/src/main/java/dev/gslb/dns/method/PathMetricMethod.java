package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;

/**
 * The shape of the path-metric methods: decide only when every candidate's data center has a
 * fresh path (within the path TTL) to this LDNS; otherwise pass (the probes were already asked
 * for when the query arrived), so an LDNS with partial data falls to topology, never to a guess.
 */
abstract class PathMetricMethod implements LoadBalancingMethod {
    private final ProximityTable table;
    private final long pathTtlMillis;

    PathMetricMethod(ProximityTable table, long pathTtlMillis) {
        this.table = table;
        this.pathTtlMillis = pathTtlMillis;
    }

    @Override
    public boolean usesPathMetrics() {
        return true;
    }

    /** True when the entry's path {@code a} is strictly better than its path {@code b}. */
    abstract boolean better(LdnsEntry e, int a, int b);

    /** True when candidate {@code x} over path {@code a} beats {@code y} over {@code b}; by default the paths decide. */
    boolean better(QueryContext q, Candidates c, int x, int a, int y, int b, LdnsEntry e) {
        return better(e, a, b);
    }

    /** Whether path {@code i} carries the metric at all (hops may be unmeasured). */
    boolean measured(LdnsEntry e, int i) {
        return true;
    }

    /**
     * The chosen candidate index, after any stickiness the method applies; the best is candidate
     * {@code best} over path {@code bestPath}, and candidate i's path is {@code q.pathAt[i]}.
     */
    int settle(QueryContext q, Candidates c, LdnsEntry e, int best, int bestPath) {
        return best;
    }

    abstract String describe(Path p);

    /** What the trace shows for candidate {@code vs} over path {@code i}; by default the path. */
    String describe(QueryContext q, Candidates c, int candidate, LdnsEntry e, int i) {
        return describe(e.path(i));
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        if (c.isEmpty()) {
            return Outcome.PASS;
        }
        LdnsEntry e = table.get(q.ldnsHi, q.ldnsLo);
        if (e == null) {
            if (q.tracing()) {
                q.trace.note(name(), "no proximity entry for LDNS " + q.ldnsText() + " yet");
            }
            return Outcome.PASS;
        }
        int best = -1;
        int bestPath = -1;
        if (q.pathAt.length < c.size()) {
            q.pathAt = new int[c.size()]; // more members than ever before: once
        }
        for (int i = 0; i < c.size(); i++) {
            String dc = c.get(i).dataCenter().name();
            int at = e.pathIndex(dc); // by index: the query path builds no Path
            if (at < 0 || !e.freshAt(at, q.nowMillis, pathTtlMillis) || !measured(e, at)) {
                if (q.tracing()) {
                    Path p = at < 0 ? null : e.path(at);
                    q.trace.note(
                            name(),
                            "no fresh " + (p == null ? "path" : "measurement") + " from " + dc
                                    + (p == null
                                            ? ""
                                            : " (" + describe(p) + ", measured "
                                                    + java.time.Instant.ofEpochMilli(p.measuredAt()) + ")"));
                }
                return Outcome.PASS;
            }
            q.pathAt[i] = at;
            if (q.tracing()) {
                q.trace.note(name(), dc + ": " + describe(q, c, i, e, at));
            }
            if (best < 0 || better(q, c, i, at, best, bestPath, e)) {
                best = i;
                bestPath = at;
            }
        }
        return c.pick(settle(q, c, e, best, bestPath));
    }
}
