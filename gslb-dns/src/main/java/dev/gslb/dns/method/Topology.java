package dev.gslb.dns.method;

import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import java.util.function.Supplier;

/**
 * The client subnet (EDNS) if present, else the LDNS address, is matched against the topology
 * table; the candidate with the highest score wins (ties: candidate order): the score of its
 * data center, of itself, or of the pool being decided, whichever is highest.
 * No match, or no positive score among the candidates, passes. Sets the ECS scope to the
 * matched prefix length, or to the client's own prefix when nothing matched.
 */
public final class Topology implements LoadBalancingMethod {
    private final Supplier<TopologyTable> table;

    public Topology(Supplier<TopologyTable> table) {
        this.table = table;
    }

    @Override
    public String name() {
        return "topology";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        if (c.isEmpty()) {
            return Outcome.PASS;
        }
        boolean ecs = q.hasClientSubnet();
        TopologyMatch m = q.placeIn(table.get());
        if (m == null) {
            if (q.tracing()) {
                q.trace.note(name(), (ecs ? "client subnet" : "LDNS") + " matches no topology prefix");
            }
            return Outcome.PASS;
        }
        int best = -1;
        long bestScore = 0;
        for (int i = 0; i < c.size(); i++) {
            // a record may target the data center, the server itself or the pool (3DNS dc./server./pool.)
            long s = Math.max(
                    m.scoreOf(c.get(i).dataCenter().name()),
                    Math.max(
                            m.scoreOf(TopologyRecord.SERVER, c.get(i).name()),
                            m.scoreOf(TopologyRecord.POOL, q.pool())));
            if (s > bestScore) {
                best = i;
                bestScore = s;
            }
        }
        if (q.tracing()) {
            q.trace.note(
                    name(),
                    (ecs ? "client subnet" : "LDNS") + " in " + m.prefix() + " (region " + m.region() + "), scores "
                            + m.scores().stream()
                                    .map(x -> x.dataCenter() + " " + x.score())
                                    .toList());
        }
        return best < 0 ? Outcome.PASS : c.pick(best);
    }
}
