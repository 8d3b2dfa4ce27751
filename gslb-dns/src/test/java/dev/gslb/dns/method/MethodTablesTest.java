package dev.gslb.dns.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.wideip.Pool;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.site.DataCenter;
import dev.gslb.site.HealthState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One table per method: who asks (LDNS, client subnet), which members are down, and what the
 * method does. The proximity table and topology are real, filled with the source's figures.
 */
class MethodTablesTest {
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final DataCenter CNC = new DataCenter("CNC");
    static final DataCenter TEL = new DataCenter("TEL");
    static final DataCenter BGP = new DataCenter("BGP");
    static final VirtualServer CNC1 = new VirtualServer("cnc1", InetAddress.ofLiteral("202.106.83.177"), CNC, 1, 0);
    static final VirtualServer TEL1 = new VirtualServer("tel1", InetAddress.ofLiteral("219.17.66.100"), TEL, 3, 0);
    static final VirtualServer BGP1 = new VirtualServer("bgp1", InetAddress.ofLiteral("198.18.5.5"), BGP, 0, 0);
    static final List<VirtualServer> MEMBERS = List.of(CNC1, TEL1, BGP1);

    static final ProximityTable PROXIMITY =
            new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));
    static final TopologyTable TOPOLOGY;
    static final MethodRegistry REGISTRY;

    static {
        long now = NOW.toEpochMilli();
        long stale = now - 2401_000;
        path("61.136.178.229", "CNC", 189850, 10000, 0, now); // the source's record
        path("61.136.178.229", "TEL", 57209, 10000, 0, now);
        path("61.136.178.229", "BGP", 99000, 10000, 0, now);
        path("198.18.1.1", "CNC", 10000, 10000, 0, now); // partial: no TEL or BGP path
        path("198.18.1.2", "CNC", 10000, 10000, 9, stale); // stale
        path("198.18.1.2", "TEL", 20000, 10000, 4, now);
        path("198.18.1.2", "BGP", 20000, 10000, 4, now);
        path("198.18.1.3", "CNC", 30000, 6666, 12, now); // equal RTT, completion decides
        path("198.18.1.3", "TEL", 30000, 10000, 7, now);
        path("198.18.1.3", "BGP", 40000, 10000, 3, now);
        try {
            TOPOLOGY = TopologyTable.build(
                    List.of(
                            region("unicom", "202.106.0.0/16"),
                            region("chinanet", "61.136.0.0/16"),
                            region("lab", "198.18.0.0/15")),
                    List.of(
                            rec("unicom", "CNC", 100),
                            rec("chinanet", "TEL", 100),
                            rec("chinanet", "CNC", 50),
                            rec("lab", "BGP", 10),
                            rec("lab", TopologyRecord.SERVER + "cnc1", 20)),
                    Set.of("CNC", "TEL", "BGP"));
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
        REGISTRY = new MethodRegistry(
                new MethodRegistry.Services(PROXIMITY, () -> TOPOLOGY, 2_400_000, MethodSettings.DEFAULTS));
    }

    static void path(String ldns, String dc, int rtt, int completion, int hops, long at) {
        PROXIMITY.recordPath(
                Address.parse(ldns), Path.of(dc, rtt, completion, hops, ProbeProtocol.DNS_DOT, at, "test"));
    }

    static Region region(String name, String cidr) {
        return new Region(name, List.of(new Region.Prefix(Cidr.parse(cidr), name, 1)));
    }

    static TopologyRecord rec(String region, String dc, long score) {
        return new TopologyRecord(region, dc, score, "test:1");
    }

    /** One row: who asks, what is down, what the method must do ("cnc1", "PASS", "DROP"...). */
    record Row(String ldns, String ecs, Set<VirtualServer> down, String expect, int expectScope) {
        static Row of(String ldns, String expect) {
            return new Row(ldns, null, Set.of(), expect, 0);
        }

        Row down(VirtualServer... vs) {
            return new Row(ldns, ecs, Set.of(vs), expect, expectScope);
        }

        Row ecs(String subnet, int scope) {
            return new Row(ldns, subnet, down, expect, scope);
        }

        @Override
        public String toString() {
            return ldns + (ecs == null ? "" : " ecs " + ecs)
                    + (down.isEmpty()
                            ? ""
                            : " down " + down.stream().map(VirtualServer::name).toList()) + " -> " + expect;
        }
    }

    static String run(LoadBalancingMethod m, Row row, QueryContext q) {
        return run(m, row, q, vs -> ServerState.UNKNOWN_AVAILABLE);
    }

    /** With each candidate's published state as {@code states} says. */
    static String run(
            LoadBalancingMethod m,
            Row row,
            QueryContext q,
            java.util.function.Function<VirtualServer, ServerState> states) {
        Pool pool = new Pool("p", MEMBERS, List.of(m), 1, -1, List.of());
        Candidates c = new Candidates();
        c.reset();
        MEMBERS.stream().filter(vs -> !row.down().contains(vs)).forEach(vs -> c.add(vs, states.apply(vs)));
        q.set(
                dev.gslb.topology.Address.of(InetAddress.ofLiteral(row.ldns())),
                org.xbill.DNS.Type.A,
                NOW.toEpochMilli());
        if (row.ecs() != null) {
            Cidr subnet = Cidr.parse(row.ecs());
            q.clientSubnet(InetAddress.ofLiteral(subnet.toString().split("/")[0]), subnet.length());
        }
        Outcome o = m.decide(c, q);
        return o == Outcome.PICKED ? c.get(0).name() : o.name();
    }

    static void check(String method, Row row) {
        QueryContext q = new QueryContext();
        assertThat(run(REGISTRY.create(method), row, q)).as(row.toString()).isEqualTo(row.expect());
        assertThat(q.scope()).as("ECS scope").isEqualTo(row.expectScope());
    }

    static Stream<Row> lowestRoundTripTime() {
        return Stream.of(
                Row.of("61.136.178.229", "tel1"), // the source: TEL 57209 us beats CNC 189850 us
                Row.of("61.136.178.229", "bgp1").down(TEL1), // only available members' paths count
                Row.of("198.18.1.1", "PASS"), // TEL and BGP paths missing
                Row.of("198.18.1.1", "cnc1").down(TEL1, BGP1), // every candidate's DC has a fresh path
                Row.of("198.18.1.2", "PASS"), // CNC's path is stale
                Row.of("198.18.1.3", "tel1"), // equal RTT: completion breaks the tie
                Row.of("198.18.9.9", "PASS"), // no entry at all
                Row.of("61.136.178.229", "PASS").down(CNC1, TEL1, BGP1));
    }

    @ParameterizedTest
    @MethodSource
    void lowestRoundTripTime(Row row) {
        check("lowest-round-trip-time", row);
    }

    static Stream<Row> completionRate() {
        return Stream.of(
                Row.of("198.18.1.3", "tel1"), Row.of("198.18.1.3", "bgp1").down(TEL1), Row.of("198.18.1.1", "PASS"));
    }

    @ParameterizedTest
    @MethodSource
    void completionRate(Row row) {
        check("completion-rate", row);
    }

    static Stream<Row> fewestHops() {
        return Stream.of(
                Row.of("198.18.1.3", "bgp1"),
                Row.of("198.18.1.3", "tel1").down(BGP1),
                Row.of("61.136.178.229", "PASS")); // hops not measured (0)
    }

    @ParameterizedTest
    @MethodSource
    void fewestHops(Row row) {
        check("fewest-hops", row);
    }

    static Stream<Row> topology() {
        return Stream.of(
                Row.of("202.106.1.1", "cnc1"), // unicom -> CNC
                Row.of("61.136.178.229", "tel1"), // chinanet: TEL 100 beats CNC 50
                Row.of("61.136.178.229", "cnc1").down(TEL1), // next best score among the available
                Row.of("8.8.8.8", "PASS"), // no match
                Row.of("198.18.9.9", "cnc1"), // a record for the server itself (3DNS server."cnc1"): 20 beats BGP 10
                Row.of("198.18.9.9", "bgp1").down(CNC1),
                Row.of("202.106.1.1", "PASS").down(CNC1), // no positive score left
                Row.of("127.0.0.1", "tel1").ecs("61.136.5.0/24", 16), // the client subnet decides, scope = /16
                Row.of("61.136.178.229", "PASS").ecs("8.8.8.0/24", 24)); // ECS matches nothing: scope = source
    }

    @ParameterizedTest
    @MethodSource
    void topology(Row row) {
        check("topology", row);
    }

    static Stream<Row> qualityOfService() {
        return Stream.of(
                Row.of("61.136.178.229", "tel1"), // F5's defaults weigh RTT most: TEL's 57209 us
                Row.of("61.136.178.229", "bgp1").down(TEL1),
                Row.of("198.18.1.3", "tel1"), // equal RTT: TEL's completion 100 % beats CNC's 66.66 %
                Row.of("198.18.1.1", "PASS"), // path-metric rule: TEL and BGP paths missing
                Row.of("198.18.1.2", "PASS")); // CNC's path is stale
    }

    @ParameterizedTest
    @MethodSource
    void qualityOfService(Row row) {
        check("quality-of-service", row);
    }

    /** The other metrics, each alone by its coefficient. */
    @org.junit.jupiter.api.Test
    void qualityOfServiceWeighsTopologyLinkHeadroomAndConfirmedHealth() {
        java.util.function.Function<VirtualServer, ServerState> states = vs -> new ServerState(
                vs == CNC1 ? HealthState.UP : HealthState.UNKNOWN,
                true,
                null,
                vs == BGP1 ? 900_000_000 : vs == CNC1 ? 100_000_000 : -1);
        var only = (java.util.function.Function<QualityOfService.Settings, String>) k -> qos(k, states);
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 10, 0, 0, 0, 0, 0)))
                .as("topology: chinanet scores TEL 100, CNC 50")
                .isEqualTo("tel1");
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 0, 30, 0, 0, 0, 0)))
                .as("link headroom: BGP's 900 Mbit/s")
                .isEqualTo("bgp1");
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 0, 0, 5, 0, 0, 0)))
                .as("confirmed up: only CNC's monitor said so")
                .isEqualTo("cnc1");
        assertThat(only.apply(new QualityOfService.Settings(1, 0, 0, 0, 30, 0, 0, 0, 0)))
                .as("RTT weighs 1 against headroom 30: headroom wins")
                .isEqualTo("bgp1");
        Trace trace = new Trace();
        QueryContext q = new QueryContext();
        q.set(
                        dev.gslb.topology.Address.of(InetAddress.ofLiteral("61.136.178.229")),
                        org.xbill.DNS.Type.A,
                        NOW.toEpochMilli())
                .trace(trace);
        Candidates c = new Candidates();
        MEMBERS.forEach(c::add);
        REGISTRY.create("quality-of-service").decide(c, q);
        assertThat(trace.steps())
                .anySatisfy(st ->
                        assertThat(st.detail()).startsWith("TEL: qos ").contains("rtt 57209 us, completion 10000"));
    }

    /** What quality-of-service with coefficients {@code k} answers the source's LDNS, the members' states as given. */
    static String qos(QualityOfService.Settings k, java.util.function.Function<VirtualServer, ServerState> states) {
        return run(
                REGISTRY.create("quality-of-service", MethodSettings.of(k)),
                Row.of("61.136.178.229", "?"),
                new QueryContext(),
                states);
    }

    /** Packet rate, kB/s, servers up and score, each alone; an unknown metric adds nothing. */
    @org.junit.jupiter.api.Test
    void qualityOfServiceWeighsServerLoadAndScore() {
        java.util.function.Function<VirtualServer, ServerState> states = vs -> new ServerState(
                vs == CNC1 ? HealthState.UP : HealthState.UNKNOWN,
                true,
                null,
                -1,
                null,
                dev.gslb.site.AdminState.ENABLED,
                null,
                vs == CNC1
                        ? new ServerLoad(-1, -1, -1, -1, 9_000_000, 600, -1, null, 1, "CNC")
                        : vs == TEL1
                                ? new ServerLoad(-1, -1, -1, -1, 2_000_000, -1, 4, null, 1, "TEL")
                                : new ServerLoad(-1, -1, -1, -1, -1, 100, 2, null, 1, "BGP"));
        var only = (java.util.function.Function<QualityOfService.Settings, String>) k -> qos(k, states);
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 0, 0, 0, 1, 0, 0)))
                .as("packet rate: BGP's 100/s; TEL's unknown counts nothing")
                .isEqualTo("bgp1");
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 0, 0, 0, 0, 3, 0)))
                .as("kB/s: TEL's 2,000 beats CNC's 9,000; BGP's unknown counts nothing")
                .isEqualTo("tel1");
        assertThat(only.apply(new QualityOfService.Settings(0, 0, 0, 0, 0, 5, 0, 0, 0)))
                .as("servers up: TEL's 4 beat BGP's 2 and CNC's confirmed UP (1)")
                .isEqualTo("tel1");
        MethodSettings scored = MethodSettings.of(new QualityOfService.Settings(0, 0, 0, 0, 0, 0, 0, 0, 10));
        Candidates c = new Candidates();
        c.add(CNC1.withScore(30));
        c.add(TEL1);
        c.add(BGP1.withScore(90));
        QueryContext q = new QueryContext();
        q.set(dev.gslb.topology.Address.parse("61.136.178.229"), org.xbill.DNS.Type.A, NOW.toEpochMilli());
        assertThat(REGISTRY.create("quality-of-service", scored).decide(c, q)).isEqualTo(Outcome.PICKED);
        assertThat(c.get(0).name()).as("score: BGP's 90").isEqualTo("bgp1");
    }

    static Stream<Row> globalAvailability() {
        return Stream.of(
                Row.of("8.8.8.8", "cnc1"),
                Row.of("8.8.8.8", "tel1").down(CNC1),
                Row.of("8.8.8.8", "bgp1").down(CNC1, TEL1),
                Row.of("8.8.8.8", "PASS").down(CNC1, TEL1, BGP1));
    }

    @ParameterizedTest
    @MethodSource
    void globalAvailability(Row row) {
        check("global-availability", row);
    }

    static Stream<Row> staticPersistence() {
        return Stream.of(
                Row.of("198.18.1.3", "PASS").down(CNC1, TEL1, BGP1),
                Row.of("198.18.1.3", "bgp1").down(CNC1, TEL1));
    }

    @ParameterizedTest
    @MethodSource
    void staticPersistence(Row row) {
        check("static-persistence", row);
    }

    @org.junit.jupiter.api.Test
    void staticPersistenceGivesOneNetworkOneAnswer() {
        LoadBalancingMethod m = REGISTRY.create("static-persistence");
        Map<String, String> byNetwork = new HashMap<>();
        for (int net = 0; net < 50; net++) {
            for (int host = 1; host < 255; host += 37) {
                String answer = run(m, Row.of("198.18." + net + "." + host, "?"), new QueryContext());
                assertThat(byNetwork.computeIfAbsent("net" + net, k -> answer)).isEqualTo(answer);
            }
        }
        assertThat(Set.copyOf(byNetwork.values()))
                .as("networks spread over the members")
                .hasSizeGreaterThan(1);
        QueryContext q = new QueryContext();
        run(m, Row.of("127.0.0.1", "?").ecs("198.18.7.0/24", 24), q);
        assertThat(q.scope()).isEqualTo(24);
    }

    @org.junit.jupiter.api.Test
    void roundRobinTakesEachInTurnAndRatioFollowsWeights() {
        LoadBalancingMethod rr = REGISTRY.create("round-robin");
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            seen.merge(run(rr, Row.of("8.8.8.8", "?"), new QueryContext()), 1, Integer::sum);
        }
        assertThat(seen).containsEntry("cnc1", 10).containsEntry("tel1", 10).containsEntry("bgp1", 10);
        LoadBalancingMethod ratio = REGISTRY.create("ratio");
        Map<String, Integer> weighted = new HashMap<>();
        for (int i = 0; i < 40; i++) {
            weighted.merge(run(ratio, Row.of("8.8.8.8", "?"), new QueryContext()), 1, Integer::sum);
        }
        assertThat(weighted)
                .as("ratio 1 : 3, and ratio 0 never")
                .containsOnly(Map.entry("cnc1", 10), Map.entry("tel1", 30));
        assertThat(run(ratio, Row.of("8.8.8.8", "?").down(CNC1, TEL1), new QueryContext()))
                .isEqualTo("PASS");
    }

    static Stream<Row> terminal() {
        return Stream.of(
                Row.of("8.8.8.8", "FALLBACK_IP"),
                Row.of("8.8.8.8", "RETURN_TO_DNS"),
                Row.of("8.8.8.8", "DROP"),
                Row.of("8.8.8.8", "PASS"));
    }

    @ParameterizedTest
    @MethodSource
    void terminal(Row row) {
        String method = switch (row.expect()) {
            case "FALLBACK_IP" -> "fallback-ip";
            case "RETURN_TO_DNS" -> "return-to-dns";
            case "DROP" -> "drop-packet";
            default -> "none";
        };
        check(method, row);
        check(method, row.down(CNC1, TEL1, BGP1)); // they act whatever the health
    }

    @org.junit.jupiter.api.Test
    void rttMarginKeepsTheCurrentChoiceUnlessClearlyBetter() {
        ProximityTable t = new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));
        LoadBalancingMethod m = new MethodRegistry(new MethodRegistry.Services(
                        t, () -> TOPOLOGY, 2_400_000, MethodSettings.of(new LowestRoundTripTime.Settings(20, 5000))))
                .create("lowest-round-trip-time");
        Address k = Address.parse("198.18.2.2");
        long now = NOW.toEpochMilli();
        t.recordPath(k, Path.of("CNC", 50000, 10000, 0, ProbeProtocol.TCP, now, "t"));
        t.recordPath(k, Path.of("TEL", 60000, 10000, 0, ProbeProtocol.TCP, now, "t"));
        t.recordPath(k, Path.of("BGP", 90000, 10000, 0, ProbeProtocol.TCP, now, "t"));
        assertThat(run(m, Row.of("198.18.2.2", "?"), new QueryContext())).isEqualTo("cnc1");
        t.recordPath(k, Path.of("TEL", 45000, 10000, 0, ProbeProtocol.TCP, now + 1, "t")); // 10 % better: not enough
        assertThat(run(m, Row.of("198.18.2.2", "?"), new QueryContext())).isEqualTo("cnc1");
        t.recordPath(k, Path.of("TEL", 30000, 10000, 0, ProbeProtocol.TCP, now + 2, "t")); // 40 % and 20 ms better
        assertThat(run(m, Row.of("198.18.2.2", "?"), new QueryContext())).isEqualTo("tel1");
    }
}
