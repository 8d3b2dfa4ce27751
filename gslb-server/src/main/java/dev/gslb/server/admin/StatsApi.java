package dev.gslb.server.admin;

import dev.gslb.api.Role;
import dev.gslb.api.ServerStatus;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.wideip.AnswerStatistics;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.load.LiveTopology;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * What has been answered and how the servers stand: GET /stats (answers per wide IP, or of one
 * with ?wide-ip=NAME), GET /stats/ldns (LDNS by data center and region) and GET /health/servers
 * (each virtual server with its worst-case switch-over time and its load).
 */
public final class StatsApi {
    private final Supplier<AnswerStatistics> statistics;
    private final LiveTopology topology;
    private final HealthMonitor health;
    private final Supplier<Authority> authority;
    private final Supplier<SiteState> site;

    public StatsApi(
            Supplier<AnswerStatistics> statistics,
            LiveTopology topology,
            HealthMonitor health,
            Supplier<Authority> authority,
            Supplier<SiteState> site) {
        this.site = site;
        this.statistics = statistics;
        this.topology = topology;
        this.health = health;
        this.authority = authority;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/health/servers", Role.VIEWER, r -> AdminServer.Response.ok(servers())),
                new AdminServer.Route(
                        "GET",
                        "/stats",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(Replies.wideIps(statistics
                                .get()
                                .view(
                                        System.currentTimeMillis(),
                                        r.param("wide-ip") == null ? null : wideIpName(r.param("wide-ip")))))),
                new AdminServer.Route(
                        "GET",
                        "/stats/ldns",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(Replies.ldns(statistics
                                .get()
                                .ldns(System.currentTimeMillis(), (hi, lo) -> {
                                    var m = topology.table().lookup(hi, lo);
                                    return m == null ? null : m.region();
                                })))));
    }

    /** `gslb health`: each server's status, with what an operator set on it and its load. */
    public List<ServerStatus> servers() {
        SiteState s = site.get();
        Map<String, String> set = new HashMap<>();
        Map<String, ServerLoad> loads = new HashMap<>();
        for (VirtualServer vs : s.site().servers()) {
            RuntimeState r = s.at(vs).set();
            if (r != null) {
                set.put(vs.name(), r.describe());
            }
            loads.put(vs.name(), s.at(vs).load());
        }
        return serverStatuses().stream()
                .map(st -> Replies.server(st, set.get(st.name()), loads.get(st.name())))
                .toList();
    }

    /** Each server's health with its worst-case switch-over time. */
    public List<HealthMonitor.Status> serverStatuses() {
        Authority a = authority.get();
        return health.statuses().stream()
                .map(st -> st.withSwitchOver(health.switchOver(
                        st.name(),
                        Duration.ofSeconds(a.longestAnswerTtl(vs -> vs.name().equals(st.name()))))))
                .toList();
    }

    private static Name wideIpName(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a domain name");
        }
    }
}
