package dev.gslb.server.admin;

import dev.gslb.api.LinkStatus;
import dev.gslb.api.Role;
import dev.gslb.dns.answer.Authority;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.site.LinkState;
import dev.gslb.site.SiteState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/** GET /links: every configured link, measured here or by the peer on it. */
public final class LinkApi {
    private final LinkMonitor links;
    private final Supplier<SiteState> site;
    private final Supplier<Authority> authority;

    public LinkApi(LinkMonitor links, Supplier<SiteState> site, Supplier<Authority> authority) {
        this.links = links;
        this.site = site;
        this.authority = authority;
    }

    public List<AdminServer.Route> routes() {
        return List.of(new AdminServer.Route("GET", "/links", Role.VIEWER, r -> AdminServer.Response.ok(statuses())));
    }

    public List<LinkStatus> statuses() {
        List<LinkStatus> out = new ArrayList<>();
        for (LinkSpec l : links.specs()) {
            LinkState s = site.get().link(l.name());
            if (s == null) {
                s = LinkState.unknown(l.name());
            }
            long ttl = authority.get().longestAnswerTtl(vs -> l.name().equals(vs.link()));
            out.add(new LinkStatus(
                    l.name(),
                    l.dataCenter(),
                    s.state().name().toLowerCase(Locale.ROOT), // "up", as every state the API writes
                    s.inBps() < 0 ? null : s.inBps(),
                    s.outBps() < 0 ? null : s.outBps(),
                    bps(l.limitIn()),
                    bps(l.limitOut()),
                    bps(l.capacity()),
                    s.overLimit(),
                    s.overLimitReason(),
                    LinkMonitor.source(l),
                    s.measuredAt() == 0
                            ? null
                            : Instant.ofEpochMilli(s.measuredAt()).toString(),
                    s.measuredBy(),
                    s.reason(),
                    l.switchOver(Duration.ofSeconds(ttl)).toSeconds()));
        }
        return out;
    }

    private static Long bps(Bandwidth b) {
        return b == null ? null : b.bitsPerSecond();
    }
}
