package dev.gslb.dns.method;

import static dev.gslb.dns.method.MethodTablesTest.BGP1;
import static dev.gslb.dns.method.MethodTablesTest.CNC1;
import static dev.gslb.dns.method.MethodTablesTest.MEMBERS;
import static dev.gslb.dns.method.MethodTablesTest.NOW;
import static dev.gslb.dns.method.MethodTablesTest.TEL1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.proximity.RttMargin;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyTable;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Type;

/**
 * The RTT margin: the previous answer for an LDNS stays until another data center is better by
 * both 10 ms and 5 % (the defaults), so near ties do not flap, while a real difference still moves.
 */
class LowestRoundTripTimeTest {
    private static final Address LDNS = Address.parse("198.18.7.7");

    private final ProximityTable proximity =
            new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));
    private final MethodRegistry.Services services =
            new MethodRegistry.Services(proximity, TopologyTable::empty, 2_400_000, MethodSettings.DEFAULTS);
    private long measured = NOW.toEpochMilli() - 60_000;

    /** The method at the default margin, as a server builds it for a pool. */
    private LoadBalancingMethod rtt() {
        return new MethodRegistry(services).create("lowest-round-trip-time");
    }

    /** The method and the table at another margin, as a server sets both from one configuration. */
    private LoadBalancingMethod rtt(int percent, long micros) {
        proximity.rttMargin(new RttMargin(percent, micros));
        return new MethodRegistry(services)
                .create("lowest-round-trip-time", MethodSettings.of(new LowestRoundTripTime.Settings(percent, micros)));
    }

    /** Newly measured round-trip times (ms) from CNC, TEL and BGP to the LDNS. */
    private void paths(Address ldns, double cnc, double tel, double bgp) {
        measured++;
        proximity.recordPath(ldns, Path.of("CNC", (long) (cnc * 1000), 10000, 0, ProbeProtocol.TCP, measured, "t"));
        proximity.recordPath(ldns, Path.of("TEL", (long) (tel * 1000), 10000, 0, ProbeProtocol.TCP, measured, "t"));
        proximity.recordPath(ldns, Path.of("BGP", (long) (bgp * 1000), 10000, 0, ProbeProtocol.TCP, measured, "t"));
    }

    private static String answer(LoadBalancingMethod m, Address ldns, VirtualServer... down) {
        Candidates c = new Candidates();
        MEMBERS.stream().filter(vs -> !List.of(down).contains(vs)).forEach(c::add);
        Outcome o = m.decide(c, new QueryContext().set(ldns, Type.A, NOW.toEpochMilli()));
        assertThat(o).isEqualTo(Outcome.PICKED);
        return c.get(0).name();
    }

    @Test
    void theDefaultMarginIsTenMillisecondsAndFivePercent() {
        assertThat(LowestRoundTripTime.Settings.DEFAULTS).isEqualTo(new LowestRoundTripTime.Settings(5, 10_000));
        assertThat(LowestRoundTripTime.Settings.MARGIN.shownDefault()).isEqualTo("10ms");
        assertThat(LowestRoundTripTime.Settings.MARGIN_PERCENT.shownDefault()).isEqualTo("5");
    }

    @Test
    void withNoPreviousChoiceAClearlyBetterPathWins() {
        paths(LDNS, 50, 39, 90);
        assertThat(answer(rtt(), LDNS)).isEqualTo("tel1");
    }

    /**
     * The two instances of a pair record the same paths (each measures its own and gets the other's
     * from its peer) but answer different queries at different times. The data center kept moves
     * with the paths alone, so whenever both answer they answer alike, however often each is asked:
     * with a choice remembered per instance and moved by queries, an instance asked between two
     * updates could move where the other, asked only after the second, did not, and a resolver
     * asking both then flipped between them on a near tie.
     */
    @Test
    void bothInstancesOfAPairKeepTheSameDataCenterHoweverOftenEachIsAsked() {
        ProximityTable peersTable = new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));
        LoadBalancingMethod here = rtt();
        LoadBalancingMethod peer = new MethodRegistry(new MethodRegistry.Services(
                        peersTable, TopologyTable::empty, 2_400_000, MethodSettings.DEFAULTS))
                .create("lowest-round-trip-time");
        java.util.Random random = new java.util.Random(7);
        Map<String, Integer> answered = new HashMap<>();
        int agreed = 0;
        for (int n = 0; n < 50; n++) {
            Address ldns = Address.parse("198.18.8." + n);
            for (int update = 0; update < 200; update++) { // a near tie: means 4 ms apart, +/- 8 ms of noise
                String dc = update % 2 == 0 ? "CNC" : "TEL";
                long rtt = 50_000 + (dc.equals("TEL") ? 4_000 : 0) + random.nextInt(-8_000, 8_000);
                Path p = Path.of(dc, rtt, 10000, 0, ProbeProtocol.TCP, ++measured, "t");
                proximity.recordPath(ldns, p);
                peersTable.recordPath(ldns, p);
                if (update == 0) {
                    continue; // TEL has no path yet
                }
                String mine = answer(here, ldns, BGP1); // asked after every update
                if (update % 7 == 6) { // the peer only now and then
                    assertThat(answer(peer, ldns, BGP1))
                            .as("LDNS %s, update %d", ldns, update)
                            .isEqualTo(mine);
                    agreed++;
                }
                answered.merge(mine, 1, Integer::sum);
            }
        }
        assertThat(agreed).isEqualTo(50 * 28);
        assertThat(answered).as("near ties spread over both").containsOnlyKeys("cnc1", "tel1");
    }

    /** CNC's and TEL's round-trip times (ms) in one round of measurements; BGP is far. */
    private record Round(double cnc, double tel) {}

    private static Round rtts(double cnc, double tel) {
        return new Round(cnc, tel);
    }

    /** The answer after each round of measurements in turn. */
    private List<String> answers(LoadBalancingMethod m, Round... rounds) {
        return Arrays.stream(rounds)
                .map(r -> {
                    paths(LDNS, r.cnc(), r.tel(), 900);
                    return answer(m, LDNS);
                })
                .toList();
    }

    @Test
    void keepsThePreviousChoiceWithinTheMarginAndMovesWhenBetterByBoth() {
        assertThat(answers(
                        rtt(),
                        rtts(50, 61),
                        rtts(50, 41), // 9 ms (18 %) better: within 10 ms
                        rtts(50, 41),
                        rtts(50, 39), // 11 ms (22 %) better
                        rtts(45, 50))) // back within the margin: TEL is now the one kept
                .containsExactly("cnc1", "cnc1", "cnc1", "tel1", "tel1");
    }

    @Test
    void aTwentyMillisecondGapMovesTheAnswer() {
        // the route changed: means 20 ms apart the other way
        assertThat(answers(rtt(), rtts(60, 80), rtts(80, 60))).containsExactly("cnc1", "tel1");
    }

    @Test
    void thePercentRulesAtLongRoundTripTimes() {
        assertThat(answers(
                        rtt(),
                        rtts(300, 320),
                        rtts(300, 286), // 14 ms but 4.7 %: kept
                        rtts(300, 284), // 16 ms and 5.3 %: moves
                        rtts(89, 100))) // at 100 ms the 10 ms rules: 11 ms (11 %) moves it back
                .containsExactly("cnc1", "cnc1", "tel1", "cnc1");
    }

    @Test
    void bothMarginsMustHoldAsConfigured() {
        assertThat(answers(
                        rtt(20, 5000),
                        rtts(50, 70),
                        rtts(50, 42), // 8 ms, 16 %: short of 20 %
                        rtts(50, 39))) // 11 ms, 22 %
                .containsExactly("cnc1", "cnc1", "tel1");
    }

    @Test
    void withTheMarginOffTheBestAlwaysWins() {
        assertThat(answers(rtt(0, 0), rtts(50, 60), rtts(50, 49.9), rtts(49.9, 50)))
                .containsExactly("cnc1", "tel1", "cnc1");
    }

    @Test
    void everyPoolOfOneServerSharesTheChoiceOfAnLdns() {
        LoadBalancingMethod pool1 = rtt();
        LoadBalancingMethod pool2 = rtt();
        paths(LDNS, 50, 61, 90);
        assertThat(answer(pool1, LDNS)).isEqualTo("cnc1");
        paths(LDNS, 50, 45, 90);
        assertThat(answer(pool2, LDNS))
                .as("the other pool keeps what the first answered")
                .isEqualTo("cnc1");
    }

    /** The data center the LDNS prefers of two ({@link RttMargin#preference}), as its server's name. */
    private static String preferred(Address ldns, String a, String b) {
        return (RttMargin.preference(ldns.hi(), ldns.lo(), a) > RttMargin.preference(ldns.hi(), ldns.lo(), b) ? a : b)
                        .toLowerCase()
                + "1";
    }

    @Test
    void whenTheKeptDataCenterIsNotACandidateANearTieGoesToThePreference() {
        LoadBalancingMethod m = rtt();
        paths(LDNS, 50, 61, 30); // BGP kept
        assertThat(answer(m, LDNS, BGP1)).as("TEL clearly slower than CNC").isEqualTo("cnc1");
        paths(LDNS, 50, 45, 30);
        assertThat(answer(m, LDNS, CNC1, BGP1)).isEqualTo("tel1");
        assertThat(answer(m, LDNS, CNC1)).isEqualTo("bgp1");
        assertThat(answer(m, LDNS, BGP1)).as("CNC and TEL within the margin").isEqualTo(preferred(LDNS, "CNC", "TEL"));
        assertThat(answer(m, LDNS, TEL1)).isEqualTo("bgp1");
    }

    @Test
    void eachLdnsHasItsOwnChoice() {
        LoadBalancingMethod m = rtt();
        Address other = Address.parse("198.18.7.8");
        paths(LDNS, 50, 61, 90);
        paths(other, 61, 50, 90);
        assertThat(answer(m, LDNS)).isEqualTo("cnc1");
        assertThat(answer(m, other)).isEqualTo("tel1");
        paths(LDNS, 55, 50, 90);
        paths(other, 50, 55, 90);
        assertThat(answer(m, LDNS)).isEqualTo("cnc1");
        assertThat(answer(m, other)).isEqualTo("tel1");
    }

    /** The answer, with the trace's steps, of one traced decision. */
    private record Traced(String answer, List<Trace.Step> steps) {}

    private static Traced traced(LoadBalancingMethod m, Address ldns, VirtualServer... down) {
        Candidates c = new Candidates();
        MEMBERS.stream().filter(vs -> !List.of(down).contains(vs)).forEach(c::add);
        QueryContext q = new QueryContext().set(ldns, Type.A, NOW.toEpochMilli());
        Trace trace = new Trace();
        q.trace(trace);
        assertThat(m.decide(c, q)).isEqualTo(Outcome.PICKED);
        return new Traced(c.get(0).name(), trace.steps());
    }

    @Test
    void theTraceSaysWhyThePreviousChoiceStays() {
        LoadBalancingMethod m = rtt();
        paths(LDNS, 50, 61, 90);
        assertThat(answer(m, LDNS)).isEqualTo("cnc1");
        paths(LDNS, 50, 45, 90);
        assertThat(traced(m, LDNS).steps())
                .contains(new Trace.Step("lowest-round-trip-time", "keeps CNC: TEL is not better by the margin"));
    }

    @Test
    void theTraceSaysWhenANearTieGoesToThePreference() {
        LoadBalancingMethod m = rtt();
        for (int n = 0; ; n++) { // an LDNS that prefers CNC, the slower of two near-tied paths; BGP (kept) is out
            Address ldns = Address.parse("198.18.9." + n);
            if (!preferred(ldns, "CNC", "TEL").equals("cnc1")) {
                continue;
            }
            paths(ldns, 50, 45, 20);
            Traced t = traced(m, ldns, BGP1);
            assertThat(t.answer()).isEqualTo("cnc1");
            assertThat(t.steps())
                    .contains(new Trace.Step(
                            "lowest-round-trip-time",
                            "prefers CNC: TEL is not better by the margin (a near tie goes to the LDNS's"
                                    + " preference, the same on every instance)"));
            return;
        }
    }
}
