package dev.gslb.dns.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.site.AdminState;
import dev.gslb.site.HealthState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyTable;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
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
        Address ldns = Address.parse("61.136.178.229");
        assertThat(method.decide(c, q.set(ldns, Type.A, now))).isEqualTo(Outcome.PICKED);
        assertThat(bytesPerDecision(() -> method.decide(c, q.set(ldns, Type.A, now))))
                .as(name + ": bytes per decision")
                .isZero();
    }

    /**
     * The RTT margin, on by default, costs nothing either: decisions that keep the entry's data
     * center within the margin, and that take the LDNS's preference when the kept one is not a
     * candidate.
     */
    @Test
    void theRttMarginAllocatesNothing() {
        assertThat(LowestRoundTripTime.Settings.DEFAULTS.margin().off()).isFalse();
        Instant at = MethodTablesTest.NOW;
        ProximityTable proximity = new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(at, ZoneOffset.UTC));
        var services = new MethodRegistry.Services(proximity, TopologyTable::empty, 2_400_000, MethodSettings.DEFAULTS);
        LoadBalancingMethod method = new MethodRegistry(services).create("lowest-round-trip-time");
        long now = at.toEpochMilli();
        Candidates c = candidates();
        QueryContext q = new QueryContext();
        // kept: CNC clearly best first, TEL then 5 ms better (within the margin)
        Address kept = Address.parse("198.18.3.1");
        paths(proximity, kept, 50_000, 61_000, now - 2);
        paths(proximity, kept, 50_000, 45_000, now - 1);
        assertThat(pick(method, c, q, kept, now)).isEqualTo("cnc1");
        // the kept data center is not a candidate: BGP clearly best, its server left out
        Address elsewhere = Address.parse("198.18.3.2");
        proximity.recordPath(elsewhere, Path.of("CNC", 50_000, 10000, 0, ProbeProtocol.TCP, now - 1, "t"));
        proximity.recordPath(elsewhere, Path.of("TEL", 52_000, 10000, 0, ProbeProtocol.TCP, now - 1, "t"));
        proximity.recordPath(elsewhere, Path.of("BGP", 20_000, 10000, 0, ProbeProtocol.TCP, now - 1, "t"));
        Candidates noBgp = new Candidates();
        MethodTablesTest.MEMBERS.stream()
                .filter(vs -> !vs.dataCenter().name().equals("BGP"))
                .forEach(noBgp::add);
        LdnsEntry e = proximity.get(elsewhere);
        assertThat(e.keptDataCenter()).as("BGP kept").isEqualTo(e.dataCenterNumber(e.pathIndex("BGP")));
        assertThat(bytesPerDecision(() -> {
                    method.decide(c, q.set(kept, Type.A, now));
                    method.decide(noBgp, q.set(elsewhere, Type.A, now));
                }))
                .as("bytes per two decisions")
                .isZero();
        assertThat(pick(method, c, q, kept, now)).isEqualTo("cnc1");
    }

    private static void paths(ProximityTable proximity, Address ldns, int cnc, int tel, long at) {
        proximity.recordPath(ldns, Path.of("CNC", cnc, 10000, 0, ProbeProtocol.TCP, at, "t"));
        proximity.recordPath(ldns, Path.of("TEL", tel, 10000, 0, ProbeProtocol.TCP, at, "t"));
        proximity.recordPath(ldns, Path.of("BGP", 90_000, 10000, 0, ProbeProtocol.TCP, at, "t"));
    }

    private static String pick(LoadBalancingMethod method, Candidates c, QueryContext q, Address ldns, long now) {
        assertThat(method.decide(c, q.set(ldns, Type.A, now))).isEqualTo(Outcome.PICKED);
        return c.get(0).name();
    }

    /** The bytes this thread allocates per call of {@code decisions}, the least of several rounds. */
    private static long bytesPerDecision(Runnable decisions) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < RUNS; i++) {
                decisions.run();
            }
            least = Math.min(least, (threads.getCurrentThreadAllocatedBytes() - before) / RUNS);
        }
        return least;
    }
}
