package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
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
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * A link over its limit takes its servers out of the candidates, whichever method decides; when
 * every candidate's link is over, the pool answers as if none were, and counts it. The RTT table
 * is real: the LDNS is closest to CNC, so only the spill moves it.
 */
class LinkSpillTest {
    static final VirtualServer CNC1 =
            new VirtualServer("cnc1", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"), 1, 0, "CNC-1", 0);
    static final VirtualServer TEL1 =
            new VirtualServer("tel1", InetAddress.ofLiteral("198.18.3.10"), new DataCenter("TEL"), 1, 0, "TEL-1", 1);
    static final InetAddress LDNS = InetAddress.ofLiteral("198.18.4.2");

    final SitePublisher site = new SitePublisher(
            new Site(List.of(CNC1, TEL1), List.of(new Link("CNC-1", "CNC", -1), new Link("TEL-1", "TEL", -1))),
            true,
            Clock.systemUTC());
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final WideIpResolver resolver = new WideIpResolver(site::state, ProbeRequests.NONE, registry);

    /** The link's own measurement: over its limit for {@code reason}, or not (null). */
    void overLimit(String link, String reason) {
        site.localLink(new LinkState(link, HealthState.UP, -1, -1, reason, System.currentTimeMillis(), "test", "up"));
    }

    final WideIp www;

    LinkSpillTest() throws Exception {
        ProximityTable proximity = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        long now = System.currentTimeMillis();
        proximity.recordPath(Address.of(LDNS), Path.of("CNC", 10_000, 10_000, 0, ProbeProtocol.DNS_DOT, now, "a"));
        proximity.recordPath(Address.of(LDNS), Path.of("TEL", 50_000, 10_000, 0, ProbeProtocol.DNS_DOT, now, "b"));
        TopologyTable empty = TopologyTable.build(List.of(), List.of(), Set.of("CNC", "TEL"));
        MethodRegistry methods = new MethodRegistry(
                new MethodRegistry.Services(proximity, () -> empty, 2_400_000, MethodSettings.DEFAULTS));
        Pool pool = new Pool(
                "www",
                List.of(CNC1, TEL1),
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                1,
                -1,
                List.of());
        www = new WideIp(Name.fromString("www.example.com."), List.of(pool), 30);
    }

    String answer() {
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        s.query.set(dev.gslb.topology.Address.of(LDNS), Type.A, System.currentTimeMillis());
        return resolver.resolve(www, s).answer(0).name();
    }

    @Test
    void aFullLinkSpillsItsAnswersToTheOtherLink() {
        assertThat(answer()).as("RTT: CNC is closest").isEqualTo("cnc1");
        overLimit("CNC-1", "link CNC-1 over limit: in 812 Mbit/s > 800 Mbit/s");
        assertThat(answer()).isEqualTo("tel1");
        Explanation e = Explanation.of(resolver, www, Type.A, LDNS, null, 0, null);
        assertThat(e.steps())
                .anySatisfy(st -> assertThat(st.detail())
                        .isEqualTo("www: cnc1 198.18.2.10 (CNC) link CNC-1 over limit: in 812 Mbit/s > 800 Mbit/s"));
        overLimit("CNC-1", null);
        assertThat(answer()).as("under resume again: RTT decides again").isEqualTo("cnc1");
    }

    @Test
    void whenEveryLinkIsFullTheAnswerIsAsIfNoneWere() {
        overLimit("CNC-1", "link CNC-1 over limit");
        overLimit("TEL-1", "link TEL-1 over limit");
        assertThat(answer()).as("a full link is better than no answer").isEqualTo("cnc1");
        assertThat(registry.get("link_all_over_limit").counter().count()).isEqualTo(1);
    }
}
