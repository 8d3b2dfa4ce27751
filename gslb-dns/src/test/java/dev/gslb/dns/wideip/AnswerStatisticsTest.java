package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.GlobalAvailability;
import dev.gslb.dns.method.RoundRobin;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * The split of answers per wide IP, through the real resolver: round robin over CNC and TEL gives
 * 50/50, the windows forget what is older than them, explanations are not counted, and wide IPs
 * past the bound are counted together as "other".
 */
class AnswerStatisticsTest {
    static final VirtualServer CNC =
            new VirtualServer("cnc1", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"));
    static final VirtualServer TEL =
            new VirtualServer("tel1", InetAddress.ofLiteral("198.18.3.10"), new DataCenter("TEL"));

    static WideIp wideIp(String name) throws Exception {
        Pool pool = new Pool(
                "www", List.of(CNC, TEL), List.of(new RoundRobin(), new GlobalAvailability()), 1, -1, List.of());
        return new WideIp(Name.fromString(name), List.of(pool), 30);
    }

    @Test
    void answersSplitByDataCenterServerPoolAndMethodOverEachWindow() throws Exception {
        AnswerStatistics stats = new AnswerStatistics(1);
        WideIpResolver resolver =
                new WideIpResolver(() -> SiteState.ALL_AVAILABLE, ProbeRequests.NONE, new SimpleMeterRegistry(), stats);
        WideIp www = wideIp("www.example.com.");
        long t0 = 1_800_000_000_000L;
        for (int i = 0; i < 8; i++) { // two hours ago
            ask(resolver, www, t0 - 7_200_000);
        }
        for (int i = 0; i < 6; i++) { // half an hour ago
            ask(resolver, www, t0 - 1_800_000);
        }
        for (int i = 0; i < 4; i++) { // now
            ask(resolver, www, t0);
        }
        Explanation.of(resolver, www, Type.A, InetAddress.ofLiteral("198.18.4.2"), null, 0, null);

        AnswerStatistics.WideIpView v = stats.view(t0, null).getFirst();
        assertThat(v.name()).isEqualTo("www.example.com.");
        assertThat(v.lastMinute().answers()).isEqualTo(4);
        assertThat(v.lastHour().answers())
                .as("the two-hour-old answers are out of the window")
                .isEqualTo(10);
        assertThat(v.sinceStart().answers())
                .as("the explanation is not counted")
                .isEqualTo(18);
        assertThat(v.lastMinute().dataCenters())
                .containsExactly(
                        new AnswerStatistics.Share("CNC", 2, 50.0), new AnswerStatistics.Share("TEL", 2, 50.0));
        assertThat(v.sinceStart().servers())
                .extracting(AnswerStatistics.Share::name)
                .containsExactly("cnc1", "tel1");
        assertThat(v.sinceStart().pools()).containsExactly(new AnswerStatistics.Share("www", 18, 100.0));
        assertThat(v.sinceStart().methods()).containsExactly(new AnswerStatistics.Share("round-robin", 18, 100.0));

        ask(resolver, wideIp("ftp.example.com."), t0);
        assertThat(stats.view(t0, null))
                .extracting(AnswerStatistics.WideIpView::name)
                .as("past the bound of one wide IP: counted as other")
                .containsExactly("www.example.com.", AnswerStatistics.OTHER);
        assertThat(stats.view(t0, Name.fromString("www.example.com."))).hasSize(1);
    }

    /**
     * One thread's decision objects, reused for every query as a listener thread does: its memo of
     * the last counted decision is in play as round robin alternates the answer.
     */
    private final WideIpResolver.Scratch s = new WideIpResolver.Scratch();

    void ask(WideIpResolver resolver, WideIp w, long now) {
        ask(resolver, w, now, "198.18.4.2");
    }

    void ask(WideIpResolver resolver, WideIp w, long now, String ldns) {
        s.query.set(dev.gslb.topology.Address.of(InetAddress.ofLiteral(ldns)), Type.A, now);
        resolver.resolve(w, s);
    }

    /** LDNS are counted once each (not per query), by where they were last sent and by region. */
    @Test
    void ldnsAreCountedPerDataCenterAndPerRegion() throws Exception {
        AnswerStatistics stats = new AnswerStatistics(10);
        WideIpResolver resolver =
                new WideIpResolver(() -> SiteState.ALL_AVAILABLE, ProbeRequests.NONE, new SimpleMeterRegistry(), stats);
        WideIp www = wideIp("www.example.com.");
        long t0 = 1_800_000_000_000L;
        ask(resolver, www, t0 - 7_200_000, "198.18.9.9"); // two hours ago: since start only
        for (int i = 0; i < 3; i++) {
            ask(resolver, www, t0, "198.18.4.2");
            ask(resolver, www, t0, "198.18.5.2");
            ask(resolver, www, t0, "198.18.6.2");
        }
        var v = stats.ldns(t0, (hi, lo) -> (lo & 0xFF00) == 0x0400 ? "chinanet" : null);
        assertThat(v.lastMinute().ldns())
                .as("three LDNS, whatever their queries")
                .isEqualTo(3);
        assertThat(v.sinceStart().ldns()).isEqualTo(4);
        assertThat(v.lastMinute().dataCenters())
                .extracting(LdnsSeen.Count::ldns)
                .as("each LDNS where it was last sent")
                .containsExactlyInAnyOrder(2L, 1L);
        assertThat(v.lastMinute().regions())
                .containsExactly(new LdnsSeen.Count("(no region)", 2, 66.7), new LdnsSeen.Count("chinanet", 1, 33.3));
    }

    /**
     * The counters {@code answers{wideip,datacenter,method}} and {@code lb_decisions{method,tier}}
     * through one thread's memo of its last cell: round robin alternates the data center at every
     * answer, a reload's new counters keep counting in the same adders, and an explanation is
     * counted in neither.
     */
    @Test
    void answerAndDecisionCountersFollowEachAnswerThroughTheThreadsMemo() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WideIpResolver resolver = new WideIpResolver(
                () -> SiteState.ALL_AVAILABLE, ProbeRequests.NONE, registry, new AnswerStatistics(10));
        WideIp www = wideIp("www.example.com.");
        resolver.countAnswersOf(List.of(www));
        long t0 = 1_800_000_000_000L;
        for (int i = 0; i < 6; i++) {
            ask(resolver, www, t0);
        }
        resolver.countAnswersOf(List.of(www, wideIp("ftp.example.com."))); // a reload: the next counts
        for (int i = 0; i < 4; i++) {
            ask(resolver, www, t0);
        }
        Explanation.of(resolver, www, Type.A, InetAddress.ofLiteral("198.18.4.2"), null, 0, null);

        assertThat(registry.get("answers")
                        .tags("wideip", "www.example.com", "datacenter", "CNC", "method", "round-robin")
                        .functionCounter()
                        .count())
                .isEqualTo(5);
        assertThat(registry.get("answers")
                        .tags("wideip", "www.example.com", "datacenter", "TEL", "method", "round-robin")
                        .functionCounter()
                        .count())
                .isEqualTo(5);
        assertThat(registry.get("lb_decisions")
                        .tags("method", "round-robin", "tier", "preferred")
                        .counter()
                        .count())
                .as("ten answers, the explanation not counted")
                .isEqualTo(10);
    }
}
