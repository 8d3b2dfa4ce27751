package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.Trace;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.HealthState;
import dev.gslb.site.Link;
import dev.gslb.site.LinkState;
import dev.gslb.site.Site;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * Several pools in one wide IP, under each pool method; a pool's minimum of members up with both
 * of its actions; the last-resort pool only when every other pool gave nothing; and the lines
 * {@code gslb resolve --explain} shows for each.
 */
class PoolRulesTest {
    static final DataCenter CNC = new DataCenter("CNC");
    static final DataCenter TEL = new DataCenter("TEL");
    static final DataCenter MOB = new DataCenter("MOB");
    static final VirtualServer WEB1 =
            new VirtualServer("web1", InetAddress.ofLiteral("198.18.1.10"), CNC, 1, 0, null, 0);
    static final VirtualServer WEB2 =
            new VirtualServer("web2", InetAddress.ofLiteral("198.18.1.11"), CNC, 1, 1, "cnc-link", 1);
    static final VirtualServer DR1 = new VirtualServer("dr1", InetAddress.ofLiteral("198.18.2.10"), TEL, 1, 0, null, 2);
    static final VirtualServer SORRY1 =
            new VirtualServer("sorry1", InetAddress.ofLiteral("198.18.3.10"), MOB, 1, 0, null, 3);

    /** In CNC's region by the topology records below (DR's region: 198.51.100.0/24; neither: anything else). */
    static final String CNC_LDNS = "203.0.113.7";

    static final String TEL_LDNS = "198.51.100.7";
    static final String NOWHERE_LDNS = "192.0.2.7";

    final SitePublisher site = new SitePublisher(
            new Site(List.of(WEB1, WEB2, DR1, SORRY1), List.of(new Link("cnc-link", "CNC", -1))),
            true,
            Clock.systemUTC());
    final MethodRegistry methods;
    final WideIpResolver resolver;

    PoolRulesTest() throws Exception {
        TopologyTable table = TopologyTable.build(
                List.of(),
                List.of(
                        new TopologyRecord("203.0.113.0/24", "CNC", 100, "test"),
                        new TopologyRecord("198.51.100.0/24", "TEL", 100, "test"),
                        new TopologyRecord("198.51.100.0/24", "CNC", 10, "test")),
                Set.of("CNC", "TEL", "MOB"));
        methods = new MethodRegistry(new MethodRegistry.Services(
                new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC()),
                () -> table,
                1,
                MethodSettings.DEFAULTS));
        resolver = new WideIpResolver(
                site::state,
                ProbeRequests.NONE,
                new SimpleMeterRegistry(),
                new AnswerStatistics(10),
                new PersistenceTable(dev.gslb.dns.method.StaticPersistence.Settings.DEFAULTS),
                () -> table);
    }

    @AfterEach
    void close() {
        site.close();
    }

    Pool pool(String name, List<VirtualServer> members, int minUp, Pool.MinUpAction action) {
        return new Pool(name, members, List.of(methods.create("global-availability")), 1, -1, List.of(), minUp, action);
    }

    Pool web() {
        return pool("web", List.of(WEB1, WEB2), 0, Pool.MinUpAction.NEXT_POOL);
    }

    Pool dr() {
        return pool("dr", List.of(DR1), 0, Pool.MinUpAction.NEXT_POOL);
    }

    Pool sorry() {
        return pool("sorry", List.of(SORRY1), 0, Pool.MinUpAction.NEXT_POOL);
    }

    static WideIp wideIp(WideIp.PoolMethod method, List<Pool> pools, List<Integer> ratios, int lastResort)
            throws Exception {
        return new WideIp(
                Name.fromString("www.example.com."), pools, method, 30, Failure.DEFAULT, false, 0, ratios, lastResort);
    }

    static WideIp wideIp(WideIp.PoolMethod method, List<Pool> pools) throws Exception {
        return wideIp(method, pools, Collections.nCopies(pools.size(), 1), -1);
    }

    void down(VirtualServer vs) {
        site.localHealth(vs.name(), HealthState.DOWN);
    }

    WideIpResolver.Result resolve(WideIp w, String ldns, Trace trace) {
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        s.query.set(Address.of(InetAddress.ofLiteral(ldns)), Type.A, System.currentTimeMillis());
        s.query.trace(trace);
        return resolver.resolve(w, s);
    }

    /** The server answered, or "failure" when the wide IP's failure behaviour answered. */
    String answer(WideIp w, String ldns) {
        WideIpResolver.Result r = resolve(w, ldns, null);
        return r.count() > 0
                ? r.answer(0).name()
                : r.outcome() == null ? "failure" : r.outcome().name();
    }

    /** How many of {@code n} queries each server answered. */
    Map<String, Integer> answers(WideIp w, int n) {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(answer(w, CNC_LDNS), 1, Integer::sum);
        }
        return counts;
    }

    /** The trace's lines as {@code gslb resolve --explain} shows them: "topic: detail". */
    List<String> explain(WideIp w, String ldns) {
        Trace t = new Trace();
        resolve(w, ldns, t);
        List<String> lines = new ArrayList<>();
        t.steps().forEach(s -> lines.add(s.topic() + ": " + s.detail()));
        return lines;
    }

    @Test
    void globalAvailabilityTriesThePoolsAsListed() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.GLOBAL_AVAILABILITY, List.of(web(), dr()));
        assertThat(answers(w, 10)).containsExactly(Map.entry("web1", 10));
        down(WEB1);
        down(WEB2);
        assertThat(answers(w, 10)).containsExactly(Map.entry("dr1", 10));
        down(DR1);
        assertThat(answer(w, CNC_LDNS)).isEqualTo("failure");
    }

    @Test
    void roundRobinStartsEachQueryOnePoolFurther() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.ROUND_ROBIN, List.of(web(), dr(), sorry()));
        assertThat(answers(w, 30))
                .containsExactly(Map.entry("dr1", 10), Map.entry("sorry1", 10), Map.entry("web1", 10));
        down(DR1); // its turn passes to the pool after it
        assertThat(answers(w, 30)).containsExactly(Map.entry("sorry1", 20), Map.entry("web1", 10));
    }

    @Test
    void ratioChoosesThePoolTriedFirstInProportionAndTheOthersFollowAsListed() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.RATIO, List.of(web(), dr(), sorry()), List.of(3, 1, 0), -1);
        assertThat(answers(w, 400)).containsExactly(Map.entry("dr1", 100), Map.entry("web1", 300));
        assertThat(explain(w, CNC_LDNS)).contains("pool-method: ratio: web first (ratio 3 of 4)");
        down(DR1); // dr's share: web, the first of the others as listed
        assertThat(answers(w, 400)).containsExactly(Map.entry("web1", 400));
        down(WEB1);
        down(WEB2); // ratio 0: never chosen first, but tried in its turn
        assertThat(answers(w, 40)).containsExactly(Map.entry("sorry1", 40));
    }

    @Test
    void ratioZeroEverywhereTriesThePoolsAsListed() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.RATIO, List.of(web(), dr()), List.of(0, 0), -1);
        assertThat(answers(w, 10)).containsExactly(Map.entry("web1", 10));
        assertThat(explain(w, CNC_LDNS)).contains("pool-method: ratio: every pool's ratio is 0: the pools in order");
    }

    @Test
    void topologyTriesThePoolScoringBestForTheClientFirst() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.TOPOLOGY, List.of(web(), dr()));
        assertThat(answer(w, CNC_LDNS)).isEqualTo("web1");
        assertThat(answer(w, TEL_LDNS)).isEqualTo("dr1");
        assertThat(answer(w, NOWHERE_LDNS)).as("no match: the pools in order").isEqualTo("web1");
        assertThat(explain(w, TEL_LDNS))
                .contains(
                        "pool-method: topology: client in 198.51.100.0/24 (region 198.51.100.0/24): dr first (score 100)");
        assertThat(explain(w, NOWHERE_LDNS))
                .contains("pool-method: topology: the client matches no topology prefix: the pools in order");
        down(DR1);
        assertThat(answer(w, TEL_LDNS))
                .as("the best pool passes: the others as listed")
                .isEqualTo("web1");
    }

    @Test
    void topologySetsTheClientSubnetScopeToTheMatchedPrefix() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.TOPOLOGY, List.of(web(), dr()));
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        s.query.set(Address.of(InetAddress.ofLiteral("192.0.2.1")), Type.A, System.currentTimeMillis());
        s.query.clientSubnet(InetAddress.ofLiteral("198.51.100.0"), 24);
        WideIpResolver.Result r = resolver.resolve(w, s);
        assertThat(r.answer(0).name())
                .as("the client subnet decides, not the LDNS")
                .isEqualTo("dr1");
        assertThat(s.query.scope()).isEqualTo(24);
    }

    @Test
    void aPoolWithFewerMembersUpThanItsMinimumPassesToTheNextPool() throws Exception {
        Pool web = pool("web", List.of(WEB1, WEB2), 2, Pool.MinUpAction.NEXT_POOL);
        WideIp w = wideIp(WideIp.PoolMethod.GLOBAL_AVAILABILITY, List.of(web, dr()));
        assertThat(answer(w, CNC_LDNS)).isEqualTo("web1");
        down(WEB2);
        assertThat(answer(w, CNC_LDNS)).isEqualTo("dr1");
        assertThat(explain(w, CNC_LDNS))
                .contains("min-up-members: web: 1 up, fewer than its min-up-members 2: the next pool is tried");
    }

    @Test
    void aMemberSetAsideOverItsLimitIsNotCountedUp() throws Exception {
        Pool web = pool("web", List.of(WEB1, WEB2), 2, Pool.MinUpAction.NEXT_POOL);
        WideIp w = wideIp(WideIp.PoolMethod.GLOBAL_AVAILABILITY, List.of(web, dr()));
        site.localLink(new LinkState(
                "cnc-link", HealthState.UP, -1, -1, "over its limit", System.currentTimeMillis(), "test", "up"));
        assertThat(answer(w, CNC_LDNS)).isEqualTo("dr1");
    }

    @Test
    void aPoolWhoseActionIsFailAnswersTheWideIpsFailureAtOnce() throws Exception {
        Pool web = pool("web", List.of(WEB1, WEB2), 2, Pool.MinUpAction.FAIL);
        WideIp w = wideIp(WideIp.PoolMethod.GLOBAL_AVAILABILITY, List.of(web, dr(), sorry()), List.of(1, 1, 1), 2);
        down(WEB1);
        WideIpResolver.Result r = resolve(w, CNC_LDNS, null);
        assertThat(r.outcome()).as("no other pool, not even the last resort").isNull();
        assertThat(r.failure()).isEqualTo(Failure.DEFAULT);
        assertThat(explain(w, CNC_LDNS))
                .contains("min-up-members: web: 1 up, fewer than its min-up-members 2:"
                        + " the wide IP's failure behaviour answers")
                .noneMatch(line -> line.startsWith("last-resort"));
    }

    @Test
    void theLastResortAnswersOnlyWhenEveryOtherPoolGaveNothing() throws Exception {
        for (WideIp.PoolMethod method : WideIp.PoolMethod.values()) {
            WideIp w = wideIp(method, List.of(web(), dr(), sorry()), List.of(1, 1, 1), 2);
            assertThat(answers(w, 30)).as(method.configName()).doesNotContainKey("sorry1");
        }
        WideIp w = wideIp(WideIp.PoolMethod.ROUND_ROBIN, List.of(web(), dr(), sorry()), List.of(1, 1, 1), 2);
        down(WEB1);
        down(WEB2);
        assertThat(answers(w, 10)).containsExactly(Map.entry("dr1", 10));
        down(DR1);
        assertThat(answers(w, 10)).containsExactly(Map.entry("sorry1", 10));
        assertThat(explain(w, CNC_LDNS))
                .contains(
                        "last-resort: every other pool gave nothing: sorry is tried",
                        "tier: sorry preferred: global-availability");
        down(SORRY1);
        assertThat(answer(w, CNC_LDNS)).isEqualTo("failure");
    }

    @Test
    void aLastResortListedFirstIsStillTriedLast() throws Exception {
        WideIp w = wideIp(WideIp.PoolMethod.GLOBAL_AVAILABILITY, List.of(sorry(), web()), List.of(1, 1), 0);
        assertThat(answers(w, 10)).containsExactly(Map.entry("web1", 10));
        down(WEB1);
        down(WEB2);
        assertThat(answers(w, 10)).containsExactly(Map.entry("sorry1", 10));
    }
}
