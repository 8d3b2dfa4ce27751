package dev.gslb.server;

import dev.gslb.probe.link.LinkSpec;
import dev.gslb.site.LinkState;
import dev.gslb.site.SitePublisher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/** The gauges of every configured link, read from the published site state: what this instance answers by. */
final class LinkGauges {
    private LinkGauges() {}

    /** State, traffic (NaN while unknown) and over-limit of each link. */
    static void register(List<LinkSpec> specs, SitePublisher site, MeterRegistry registry) {
        for (LinkSpec l : specs) {
            String name = l.name();
            Gauge.builder("link_state", () -> switch (link(site, name).state()) {
                        case UP -> 1;
                        case DOWN -> 0;
                        case UNKNOWN -> -1;
                    })
                    .description("Link state: 1 up, 0 down, -1 unknown")
                    .tags("link", name, "datacenter", l.dataCenter())
                    .register(registry);
            Gauge.builder("link_over_limit", () -> link(site, name).overLimit() ? 1 : 0)
                    .description("1 while the link is over its traffic limit (its servers get no new answers)")
                    .tags("link", name, "datacenter", l.dataCenter())
                    .register(registry);
            for (String direction : List.of("in", "out")) {
                Gauge.builder("link_traffic_bits_per_second", () -> {
                            LinkState s = link(site, name);
                            long bps = direction.equals("in") ? s.inBps() : s.outBps();
                            return bps < 0 ? Double.NaN : bps;
                        })
                        .description("Smoothed link traffic, as measured by the instance on the link")
                        .tags("link", name, "datacenter", l.dataCenter(), "direction", direction)
                        .register(registry);
            }
        }
    }

    /** A link as answered by, UNKNOWN when nobody measured it lately. */
    static LinkState link(SitePublisher site, String name) {
        LinkState s = site.state().link(name);
        return s == null ? LinkState.unknown(name) : s;
    }
}
