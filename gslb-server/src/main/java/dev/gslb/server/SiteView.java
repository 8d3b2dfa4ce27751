package dev.gslb.server;

import dev.gslb.dns.method.CandidateLoad;
import dev.gslb.dns.wideip.MemberHealth;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import dev.gslb.site.VirtualServer;
import dev.gslb.sync.PeerSync;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * The virtual servers and links as this instance answers by them: its own monitors and link
 * measurements, filled in by the peers' (health where it is UNKNOWN here, the links of their data
 * centers). What the method chain reads on the query path: lock-free lookups only.
 *
 * <p>UP answers, DOWN does not; what is still UNKNOWN counts as configured
 * ({@code unknown-health}). A server whose link is DOWN is unavailable; one whose link is over
 * its traffic limit is available but spilled (answered only when nothing else is).
 */
final class SiteView implements MemberHealth, CandidateLoad {
    private final PeerSync sync;
    private final LinkMonitor links;
    private final boolean unknownIsAvailable;

    SiteView(PeerSync sync, LinkMonitor links, boolean unknownIsAvailable) {
        this.sync = sync;
        this.links = links;
        this.unknownIsAvailable = unknownIsAvailable;
    }

    @Override
    public boolean available(VirtualServer vs) {
        HealthState s = sync.mergedView(vs.name());
        if (s == HealthState.DOWN || s == HealthState.UNKNOWN && !unknownIsAvailable) {
            return false;
        }
        LinkState link = vs.link() == null ? null : sync.link(vs.link());
        return link == null || link.state() != HealthState.DOWN; // a link DOWN takes its servers with it
    }

    @Override
    public String overLimit(VirtualServer vs) {
        LinkState link = vs.link() == null ? null : sync.link(vs.link());
        return link == null ? null : link.overLimitReason();
    }

    @Override
    public long linkHeadroomBps(VirtualServer vs) {
        LinkSpec spec = vs.link() == null ? null : links.spec(vs.link());
        LinkState s = spec == null || spec.capacity() == null ? null : sync.link(spec.name());
        if (s == null || s.inBps() < 0 || s.outBps() < 0) {
            return -1;
        }
        return Math.max(0, spec.capacity().bitsPerSecond() - Math.max(s.inBps(), s.outBps()));
    }

    @Override
    public boolean confirmedUp(VirtualServer vs) {
        return sync.mergedView(vs.name()) == HealthState.UP;
    }

    /** A link as answered by, UNKNOWN when nobody measured it lately. */
    LinkState link(String name) {
        LinkState s = sync.link(name);
        return s == null ? LinkState.unknown(name) : s;
    }

    /** Gauges of every configured link: state, traffic (NaN while unknown), over its limit. */
    void registerLinkGauges(MeterRegistry registry) {
        for (LinkSpec l : links.specs()) {
            String name = l.name();
            Gauge.builder("link_state", () -> switch (link(name).state()) {
                        case UP -> 1;
                        case DOWN -> 0;
                        case UNKNOWN -> -1;
                    })
                    .description("Link state: 1 up, 0 down, -1 unknown")
                    .tags("link", name, "datacenter", l.dataCenter())
                    .register(registry);
            Gauge.builder("link_over_limit", () -> link(name).overLimit() ? 1 : 0)
                    .description("1 while the link is over its traffic limit (its servers get no new answers)")
                    .tags("link", name, "datacenter", l.dataCenter())
                    .register(registry);
            for (String direction : List.of("in", "out")) {
                Gauge.builder("link_traffic_bits_per_second", () -> {
                            LinkState s = link(name);
                            long bps = direction.equals("in") ? s.inBps() : s.outBps();
                            return bps < 0 ? Double.NaN : bps;
                        })
                        .description("Smoothed link traffic, as measured by the instance on the link")
                        .tags("link", name, "datacenter", l.dataCenter(), "direction", direction)
                        .register(registry);
            }
        }
    }
}
