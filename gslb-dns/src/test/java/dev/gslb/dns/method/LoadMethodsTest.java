package dev.gslb.dns.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.gslb.site.AdminState;
import dev.gslb.site.DataCenter;
import dev.gslb.site.HealthState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.xbill.DNS.Type;

/**
 * The methods on measured server load: who wins, who is left out for an unknown metric, when the
 * method passes, that ties keep the candidates' order, the band of load-band-random, and that
 * dynamic-ratio answers in the proportions of the documented formula and holds its weights still
 * within the threshold.
 */
class LoadMethodsTest {
    static final DataCenter CNC = new DataCenter("CNC");
    static final DataCenter TEL = new DataCenter("TEL");
    static final MethodRegistry REGISTRY = new MethodRegistry(MethodRegistry.Services.UNBOUND);

    static VirtualServer vs(String name, int ratio) {
        return new VirtualServer(name, InetAddress.ofLiteral("198.18.0." + (name.hashCode() & 0x7f)), CNC, ratio, 0);
    }

    /** A load with these metrics (-1: unknown). */
    static ServerLoad load(long connections, double cpu, double memory, long bytes, long packets, int serversUp) {
        return new ServerLoad(connections, cpu, memory, -1, bytes, packets, serversUp, null, 1, "CNC");
    }

    static ServerLoad connections(long n) {
        return load(n, -1, -1, -1, -1, -1);
    }

    static ServerState state(ServerLoad load) {
        return new ServerState(HealthState.UP, true, null, -1, null, AdminState.ENABLED, null, load);
    }

    /** A candidate: its server and the load published for it. */
    record Member(VirtualServer vs, ServerLoad load) {}

    static Member m(String name, ServerLoad load) {
        return new Member(vs(name, 1), load);
    }

    static Candidates candidates(List<Member> members) {
        Candidates c = new Candidates();
        members.forEach(x -> c.add(x.vs(), state(x.load())));
        return c;
    }

    /** The answer's name, or the outcome ("PASS"). */
    static String decide(LoadBalancingMethod method, List<Member> members, Trace trace) {
        Candidates c = candidates(members);
        QueryContext q = new QueryContext().set(dev.gslb.topology.Address.parse("198.18.1.1"), Type.A, 0);
        q.trace(trace);
        Outcome o = method.decide(c, q);
        return o == Outcome.PICKED ? c.get(0).name() : o.name();
    }

    static String decide(String method, List<Member> members) {
        return decide(REGISTRY.create(method), members, null);
    }

    /** How often each answer came in {@code n} decisions. */
    static Map<String, Integer> split(LoadBalancingMethod method, List<Member> members, int n) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < n; i++) {
            seen.merge(decide(method, members, null), 1, Integer::sum);
        }
        return seen;
    }

    record Row(String method, List<Member> members, String expect, String why) {
        @Override
        public String toString() {
            return method + ": " + why;
        }
    }

    static final ServerLoad UNKNOWN = ServerLoad.UNKNOWN;

    static Stream<Row> leastLoaded() {
        return Stream.of(
                new Row(
                        "least-connections",
                        List.of(m("a", connections(300)), m("b", connections(120)), m("c", connections(500))),
                        "b",
                        "fewest connections"),
                new Row(
                        "least-connections",
                        List.of(m("a", connections(300)), m("b", UNKNOWN), m("c", connections(290))),
                        "c",
                        "unknown is left out, never read as 0"),
                new Row(
                        "least-connections",
                        List.of(m("a", connections(0)), m("b", connections(0))),
                        "a",
                        "a tie keeps the candidates' order"),
                new Row("least-connections", List.of(m("a", UNKNOWN), m("b", UNKNOWN)), "PASS", "none known"),
                new Row("least-connections", List.of(), "PASS", "no candidate"),
                new Row(
                        "packet-rate",
                        List.of(m("a", load(1, -1, -1, -1, 9000, -1)), m("b", load(900, -1, -1, -1, 800, -1))),
                        "b",
                        "fewest packets, whatever the connections"),
                new Row(
                        "packet-rate",
                        List.of(m("a", connections(1)), m("b", connections(2))),
                        "PASS",
                        "packets unknown everywhere"),
                new Row(
                        "kilobytes-per-second",
                        List.of(
                                m("a", load(-1, -1, -1, 5_000_000, 10, -1)),
                                m("b", load(-1, -1, -1, 700_000, 99_999, -1)),
                                m("c", load(-1, -1, -1, -1, 1, -1))),
                        "b",
                        "least traffic; c's is unknown"),
                new Row(
                        "cpu",
                        List.of(m("a", load(5, 71.5, 10, -1, -1, -1)), m("b", load(500, 40.25, 90, -1, -1, -1))),
                        "b",
                        "lowest CPU"),
                new Row(
                        "cpu",
                        List.of(m("a", load(5, -1, 10, -1, -1, -1)), m("b", load(5, 99, 90, -1, -1, -1))),
                        "b",
                        "the only one known, however busy"),
                new Row(
                        "vs-capacity",
                        List.of(
                                m("a", load(-1, -1, -1, -1, -1, 2)),
                                m("b", load(-1, -1, -1, -1, -1, 5)),
                                m("c", load(-1, -1, -1, -1, -1, 5))),
                        "b",
                        "most servers up; the tie with c keeps the order"),
                new Row(
                        "vs-capacity",
                        List.of(m("a", UNKNOWN), m("b", load(-1, -1, -1, -1, -1, 1))),
                        "b",
                        "unknown is left out"),
                new Row(
                        "vs-capacity",
                        List.of(m("a", load(-1, -1, -1, -1, -1, 0)), m("b", UNKNOWN)),
                        "PASS",
                        "none up behind a, b unknown"),
                new Row("random", List.of(m("a", UNKNOWN)), "a", "the only candidate, load or not"),
                new Row("random", List.of(), "PASS", "no candidate"),
                new Row("load-band-random", List.of(m("a", UNKNOWN), m("b", UNKNOWN)), "PASS", "no connections known"),
                new Row(
                        "load-band-random",
                        List.of(m("a", connections(100)), m("b", connections(500))),
                        "a",
                        "b is far out of the band"),
                new Row("dynamic-ratio", List.of(m("a", UNKNOWN), m("b", UNKNOWN)), "PASS", "no connections known"));
    }

    @ParameterizedTest
    @MethodSource
    void leastLoaded(Row row) {
        assertThat(decide(row.method(), row.members())).as(row.why()).isEqualTo(row.expect());
    }

    @Test
    void vsScorePicksTheHighestScoreAndPassesWhenNoneIsGiven() {
        LoadBalancingMethod m = REGISTRY.create("vs-score");
        Member a = new Member(vs("a", 1).withScore(40), UNKNOWN);
        Member b = new Member(vs("b", 1).withScore(80), UNKNOWN);
        Member c = new Member(vs("c", 1).withScore(80), UNKNOWN);
        Member none = new Member(vs("n", 1), UNKNOWN);
        assertThat(decide(m, List.of(a, none, b, c), null))
                .as("80 beats 40; b before c")
                .isEqualTo("b");
        assertThat(decide(m, List.of(none, a), null)).as("no score is left out").isEqualTo("a");
        assertThat(decide(m, List.of(none), null)).isEqualTo("PASS");
    }

    @Test
    void theTraceNamesWhoIsLeftOutAndWhy() {
        Trace trace = new Trace();
        decide(REGISTRY.create("least-connections"), List.of(m("a", UNKNOWN), m("b", connections(7))), trace);
        assertThat(trace.steps())
                .extracting(Trace.Step::detail)
                .contains("a: connections unknown, left out", "b: 7 connections");
        Trace none = new Trace();
        decide(REGISTRY.create("cpu"), List.of(m("a", connections(3))), none);
        assertThat(none.steps()).extracting(Trace.Step::detail).contains("no candidate's cpu is known");
    }

    @Test
    void randomAnswersEveryMemberAboutEquallyOften() {
        List<Member> members = List.of(m("a", UNKNOWN), m("b", UNKNOWN), m("c", UNKNOWN));
        Map<String, Integer> seen = split(REGISTRY.create("random"), members, 3000);
        assertThat(seen.keySet()).containsExactlyInAnyOrder("a", "b", "c");
        // 1000 expected each; 250 away is over 9 standard deviations
        assertThat(seen.values()).allSatisfy(n -> assertThat(n).isBetween(750, 1250));
    }

    @Test
    void loadBandRandomSpreadsOverTheBandOnly() {
        List<Member> members = List.of(
                m("a", connections(125)), // 25 % above the least: out of a 20 % band
                m("b", connections(100)), // the least loaded
                m("c", UNKNOWN),
                m("d", connections(119)), // 19 % above: in
                m("e", connections(120))); // exactly 20 % above: in
        Map<String, Integer> seen = split(REGISTRY.create("load-band-random"), members, 3000);
        assertThat(seen.keySet()).containsExactlyInAnyOrder("b", "d", "e");
        assertThat(seen.values()).allSatisfy(n -> assertThat(n).isBetween(750, 1250));

        MethodRegistry narrow = new MethodRegistry(new MethodRegistry.Services(
                null, null, 0, MethodSettings.of(new LoadBandRandom.Settings(LoadMetric.CONNECTIONS, 0))));
        assertThat(split(narrow.create("load-band-random"), members, 200))
                .as("band 0: the least loaded only")
                .containsOnlyKeys("b");

        MethodRegistry byCpu = new MethodRegistry(new MethodRegistry.Services(
                null, null, 0, MethodSettings.of(new LoadBandRandom.Settings(LoadMetric.CPU, 50))));
        List<Member> cpus = List.of(
                m("a", load(9000, 30, -1, -1, -1, -1)),
                m("b", load(10, 60, -1, -1, -1, -1)),
                m("c", load(1, 45, -1, -1, -1, -1)),
                m("d", connections(0)));
        assertThat(split(byCpu.create("load-band-random"), cpus, 600))
                .as("CPU 30 %: the band reaches 45 %; d's CPU is unknown")
                .containsOnlyKeys("a", "c");

        Trace trace = new Trace();
        decide(REGISTRY.create("load-band-random"), members, trace);
        assertThat(trace.steps())
                .extracting(Trace.Step::detail)
                .contains("3 within 20 % of the least loaded (100 connections, up to 120 connections)");
    }

    // dynamic-ratio with C = 10,000 (the default), A = B = 1, r1 = 1, ratios 1, 2, 1

    static final VirtualServer A = vs("a", 1);
    static final VirtualServer B = vs("b", 2);
    static final VirtualServer C = vs("c", 1);

    /** The same three servers (as in service: one object each) with these connections. */
    static List<Member> ratioMembers(long... connections) {
        return List.of(
                new Member(A, connections(connections[0])),
                new Member(B, connections(connections[1])),
                new Member(C, connections(connections[2])));
    }

    /** The formula of docs/incoming/methods.md, written out for 1,000, 2,000 and 8,000 connections. */
    static double[] weightsFor1000And2000And8000() {
        // AL = 1000/10000, 2000/20000, 8000/10000; spare = 0.9, 1.8, 0.2 (sum 2.9); LOAD = 4 * spare / 2.9
        return new double[] {
            1 + Math.cbrt(4 * 0.9 / 2.9 - 1), 2 + Math.cbrt(4 * 1.8 / 2.9 - 2), 1 + Math.cbrt(4 * 0.2 / 2.9 - 1)
        };
    }

    static void assertSplit(Map<String, Integer> seen, int n, double[] weights) {
        double total = weights[0] + weights[1] + weights[2];
        String[] names = {"a", "b", "c"};
        for (int i = 0; i < 3; i++) {
            assertThat(seen.getOrDefault(names[i], 0) / (double) n)
                    .as(names[i] + "'s share of " + seen)
                    .isCloseTo(weights[i] / total, within(0.002));
        }
    }

    @Test
    void dynamicRatioAnswersInTheProportionsOfTheFormula() {
        LoadBalancingMethod m = REGISTRY.create("dynamic-ratio");
        int n = 40_000;
        double[] w = weightsFor1000And2000And8000();
        assertThat(w[0]).isCloseTo(1.6226, within(0.0001));
        assertThat(w[2]).as("the busy member keeps a trickle").isCloseTo(0.102, within(0.001));
        assertSplit(split(m, ratioMembers(1000, 2000, 8000), n), n, w);

        // equal connections: b, of ratio 2, has twice the capacity, so more spare than its ratio's share
        LoadBalancingMethod fresh = REGISTRY.create("dynamic-ratio");
        assertSplit(split(fresh, ratioMembers(5000, 5000, 5000), n), n, new double[] {
            1 + Math.cbrt(0.8 - 1), 2 + Math.cbrt(2.4 - 2), 1 + Math.cbrt(0.8 - 1)
        });
    }

    @Test
    void dynamicRatioHoldsItsWeightsWithinTheThreshold() {
        LoadBalancingMethod m = REGISTRY.create("dynamic-ratio"); // threshold 10 % of the ratio
        int n = 40_000;
        double[] before = weightsFor1000And2000And8000();
        assertSplit(split(m, ratioMembers(1000, 2000, 8000), n), n, before);
        // c at 9,000: its formula weight halves (0.102 -> 0.050), but moves by less than 0.1 of its ratio
        assertSplit(split(m, ratioMembers(1000, 2000, 9000), n), n, before);
        Trace trace = new Trace();
        decide(m, ratioMembers(1000, 2000, 9000), trace);
        assertThat(trace.steps())
                .extracting(Trace.Step::detail)
                .anySatisfy(
                        d -> assertThat(d).startsWith("c: 9000 connections").endsWith("(kept: within the threshold)"));

        MethodRegistry noThreshold = new MethodRegistry(new MethodRegistry.Services(
                null, null, 0, MethodSettings.of(new DynamicRatio.Settings(1, 1, 1, 0, LoadMetric.MEMORY, 10_000, 0))));
        LoadBalancingMethod eager = noThreshold.create("dynamic-ratio");
        split(eager, ratioMembers(1000, 2000, 8000), 10);
        // AL = 0.1, 0.1, 0.9; spare 0.9, 1.8, 0.1 (sum 2.8)
        assertSplit(split(eager, ratioMembers(1000, 2000, 9000), n), n, new double[] {
            1 + Math.cbrt(4 * 0.9 / 2.8 - 1), 2 + Math.cbrt(4 * 1.8 / 2.8 - 2), 1 + Math.cbrt(4 * 0.1 / 2.8 - 1)
        });

        // a move past the threshold applies: a and c trade places
        Map<String, Integer> swapped = split(m, ratioMembers(8000, 2000, 1000), n);
        assertSplit(swapped, n, new double[] {before[2], before[1], before[0]});
    }

    @Test
    void dynamicRatioLeavesOutUnknownLoadsAndRatioZero() {
        LoadBalancingMethod m = REGISTRY.create("dynamic-ratio");
        List<Member> members = List.of(
                new Member(vs("a", 1), connections(100)),
                new Member(vs("b", 1), UNKNOWN),
                new Member(vs("z", 0), connections(0)));
        assertThat(split(m, members, 100)).containsOnlyKeys("a");

        MethodRegistry withMemory = new MethodRegistry(new MethodRegistry.Services(
                null,
                null,
                0,
                MethodSettings.of(new DynamicRatio.Settings(1, 1, 0.5, 0.5, LoadMetric.MEMORY, 10_000, 10))));
        List<Member> noMemory =
                List.of(new Member(vs("a", 1), connections(100)), new Member(vs("b", 1), load(100, 5, 40, -1, -1, -1)));
        assertThat(split(withMemory.create("dynamic-ratio"), noMemory, 100))
                .as("r2 weighs memory: a's is unknown")
                .containsOnlyKeys("b");
        assertThatThrownBy(() -> new DynamicRatio.Settings(1, 1, 0, 0, LoadMetric.MEMORY, 10_000, 10))
                .hasMessageContaining("r1 and r2 are both 0");
    }
}
