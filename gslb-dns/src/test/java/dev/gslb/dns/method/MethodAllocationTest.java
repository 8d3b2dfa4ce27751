package dev.gslb.dns.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.site.AdminState;
import dev.gslb.site.HealthState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xbill.DNS.Type;

/**
 * A decision allocates nothing once warm, load-aware methods included: dynamic-ratio recomputes
 * its weights only when a published load changes, never per query. Measured as the bytes this
 * thread allocates (ThreadMXBean), the least of several rounds.
 */
class MethodAllocationTest {
    private static final int RUNS = 20_000;
    private static final int ROUNDS = 6;

    /** Three members with every metric known, so each method decides rather than passes. */
    static Candidates candidates() {
        Candidates c = new Candidates();
        List<VirtualServer> members = MethodTablesTest.MEMBERS;
        for (int i = 0; i < members.size(); i++) {
            ServerLoad load =
                    new ServerLoad(100 + 50 * i, 20 + i, 30 + i, 0.5, 1_000_000 + i, 500 + i, 2 + i, null, 1, "CNC");
            c.add(
                    members.get(i).withScore(10 * (i + 1)),
                    new ServerState(HealthState.UP, true, null, -1, null, AdminState.ENABLED, null, load));
        }
        return c;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "least-connections",
                "packet-rate",
                "kilobytes-per-second",
                "cpu",
                "vs-capacity",
                "vs-score",
                "dynamic-ratio",
                "random",
                "load-band-random",
                "lowest-round-trip-time",
                "quality-of-service",
                "ratio",
                "round-robin",
                "global-availability"
            })
    void aDecisionAllocatesNothing(String name) {
        LoadBalancingMethod method = MethodTablesTest.REGISTRY.create(name);
        Candidates c = candidates();
        QueryContext q = new QueryContext();
        long now = MethodTablesTest.NOW.toEpochMilli();
        // the source's LDNS: fresh paths from every data center, so the path methods decide too
        dev.gslb.topology.Address ldns = dev.gslb.topology.Address.parse("61.136.178.229");
        assertThat(method.decide(c, q.set(ldns, Type.A, now))).isEqualTo(Outcome.PICKED);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < RUNS; i++) {
                method.decide(c, q.set(ldns, Type.A, now));
            }
            least = Math.min(least, (threads.getCurrentThreadAllocatedBytes() - before) / RUNS);
        }
        assertThat(least).as(name + ": bytes per decision").isZero();
    }
}
