package dev.gslb.dns.wideip;

import dev.gslb.dns.method.QueryContext;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The order in which a wide IP's pools are tried (its pool-method). Global availability: as
 * listed. Round robin: the listing rotated, each query starting one pool further. Ratio and
 * topology choose the pool tried first (by the pools' ratios, by the topology table's scores for
 * the client); the others follow as listed. The last-resort pool is never chosen first (the
 * resolver passes over it and tries it after every other). Lock-free and allocation-free once a
 * wide IP has its counter.
 */
final class PoolOrder {
    private final ConcurrentHashMap<WideIp, AtomicLong> rotation = new ConcurrentHashMap<>();
    private final Supplier<TopologyTable> topology;

    PoolOrder(Supplier<TopologyTable> topology) {
        this.topology = topology;
    }

    /** The index of the pool tried first for this query. */
    int first(WideIp w, QueryContext q) {
        int n = w.pools().size();
        if (n == 0) {
            return 0;
        }
        return switch (w.poolMethod()) {
            case GLOBAL_AVAILABILITY -> 0;
            case ROUND_ROBIN -> (int) Math.floorMod(counter(w).getAndIncrement(), n);
            case RATIO -> byRatio(w, q);
            case TOPOLOGY -> byTopology(w, q);
        };
    }

    /** The index of the {@code k}-th pool tried when {@code first} is tried first. */
    static int at(WideIp w, int first, int k) {
        if (w.poolMethod() == WideIp.PoolMethod.ROUND_ROBIN) {
            return (first + k) % w.pools().size();
        }
        return k == 0 ? first : k - 1 < first ? k - 1 : k; // the chosen one, then the others as listed
    }

    private AtomicLong counter(WideIp w) {
        return rotation.computeIfAbsent(w, k -> new AtomicLong());
    }

    /** Each pool in proportion to its ratio (a weighted rotation, as the ratio method does among members). */
    private int byRatio(WideIp w, QueryContext q) {
        long total = 0;
        for (int i = 0; i < w.ratios().size(); i++) {
            total += i == w.lastResort() ? 0 : w.ratios().get(i);
        }
        if (total == 0) {
            if (q.trace() != null) {
                q.trace().note("pool-method", "ratio: every pool's ratio is 0: the pools in order");
            }
            return 0;
        }
        long left = Math.floorMod(counter(w).getAndIncrement(), total);
        for (int i = 0; i < w.ratios().size(); i++) {
            left -= i == w.lastResort() ? 0 : w.ratios().get(i);
            if (left < 0) {
                if (q.trace() != null) {
                    q.trace()
                            .note(
                                    "pool-method",
                                    "ratio: " + w.pools().get(i).name() + " first (ratio "
                                            + w.ratios().get(i) + " of " + total + ")");
                }
                return i;
            }
        }
        return 0;
    }

    /**
     * The pool scoring highest for the client (ties: the first listed): a pool scores its best
     * member's data center or server record, or its own pool record. No match or no positive
     * score: the pools in order.
     */
    private int byTopology(WideIp w, QueryContext q) {
        TopologyMatch m = q.placeIn(topology.get());
        if (m == null) {
            if (q.trace() != null) {
                q.trace().note("pool-method", "topology: the client matches no topology prefix: the pools in order");
            }
            return 0;
        }
        int best = -1;
        long bestScore = 0;
        for (int p = 0; p < w.pools().size(); p++) {
            if (p == w.lastResort()) {
                continue;
            }
            long s = score(w.pools().get(p), m, q.recordType());
            if (s > bestScore) {
                best = p;
                bestScore = s;
            }
        }
        if (q.trace() != null) {
            q.trace()
                    .note(
                            "pool-method",
                            "topology: client in " + m.prefix() + " (region " + m.region() + "): "
                                    + (best < 0
                                            ? "no pool scores: the pools in order"
                                            : w.pools().get(best).name() + " first (score " + bestScore + ")"));
        }
        return best < 0 ? 0 : best;
    }

    private static long score(Pool pool, TopologyMatch m, int recordType) {
        long s = m.scoreOf(TopologyRecord.POOL, pool.name());
        for (int i = 0; i < pool.members().size(); i++) {
            VirtualServer vs = pool.members().get(i);
            if (vs.recordType() == recordType) {
                s = Math.max(
                        s, Math.max(m.scoreOf(vs.dataCenter().name()), m.scoreOf(TopologyRecord.SERVER, vs.name())));
            }
        }
        return s;
    }
}
