package dev.gslb.cli.admin;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.ProbeResult;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.LdnsKey;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Admin routes of the LDNS proximity table: list, show, probe, delete. */
public final class LdnsApi {
    /** One LDNS as JSON. */
    public record LdnsView(String address, String state, String probeProtocol, long ttl, String lastUsed,
                           String retryAt, List<PathView> paths) {}

    public record PathView(String datacenter, int rttMicros, int completion, int hops, String protocol,
                           String measuredAt, String measuredBy, boolean fresh) {}

    private final ProximityTable table;
    private final ProbeScheduler scheduler;

    public LdnsApi(ProximityTable table, ProbeScheduler scheduler) {
        this.table = table;
        this.scheduler = scheduler;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/ldns/list", r -> list(r.param("dc"), r.param("format"))),
                new AdminServer.Route("GET", "/ldns/show", r -> show(LdnsKey.parse(required(r, "ip")), r.param("format"))),
                new AdminServer.Route("POST", "/ldns/probe", r -> probe(required(r, "ip"), r.param("protocol"))),
                new AdminServer.Route("POST", "/ldns/delete", r -> {
                    boolean removed = table.remove(LdnsKey.parse(required(r, "ip")));
                    return AdminServer.Response.json(removed ? 200 : 404,
                            Json.write(Map.of("deleted", removed, "ip", r.param("ip"))));
                }));
    }

    private static String required(AdminServer.Request r, String name) {
        String v = r.param(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("give ?" + name + "=...");
        }
        return v;
    }

    private AdminServer.Response list(String dc, String format) {
        List<Map.Entry<LdnsKey, LdnsEntry>> rows = new ArrayList<>();
        for (Map.Entry<LdnsKey, LdnsEntry> e : table.entries()) {
            if (dc == null || e.getValue().path(dc) != null) {
                rows.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        rows.sort(Comparator.comparing((Map.Entry<LdnsKey, LdnsEntry> e) -> e.getKey().hi())
                .thenComparing(e -> e.getKey().lo(), Long::compareUnsigned));
        if ("3dns".equals(format)) {
            StringBuilder sb = new StringBuilder();
            rows.forEach(e -> sb.append(threeDns(e.getKey(), e.getValue())));
            return new AdminServer.Response(200, sb.toString(), "text/plain; charset=utf-8");
        }
        return AdminServer.Response.json(200, Json.write(rows.stream().map(e -> view(e.getKey(), e.getValue())).toList()));
    }

    private AdminServer.Response show(LdnsKey key, String format) {
        LdnsEntry e = table.get(key);
        if (e == null) {
            return AdminServer.Response.json(404, Json.write(Map.of("error", key + " is not in the proximity table")));
        }
        if ("3dns".equals(format)) {
            return new AdminServer.Response(200, threeDns(key, e), "text/plain; charset=utf-8");
        }
        return AdminServer.Response.json(200, Json.write(view(key, e)));
    }

    private AdminServer.Response probe(String ip, String protocol) throws InterruptedException {
        LdnsKey key = LdnsKey.parse(ip);
        ProbeResult r = scheduler.probeNow(key.address(), protocol == null ? null : ProbeProtocol.parse(protocol));
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("ip", key.toString());
        body.put("probeable", r.probeable());
        body.put("protocol", r.protocol() == null ? null : r.protocol().label());
        body.put("rttMicros", r.rttMicros());
        body.put("completion", r.completion());
        body.put("hops", r.hops());
        body.put("sent", r.sent());
        body.put("replies", r.replies());
        body.put("entry", view(key, table.get(key)));
        return AdminServer.Response.json(200, Json.write(body));
    }

    private long ttlSeconds(LdnsEntry e) {
        long left = e.lastUsed() + table.settings().inactiveTtl().toMillis() - table.clock().millis();
        return Math.max(0, left / 1000);
    }

    LdnsView view(LdnsKey key, LdnsEntry e) {
        long now = table.clock().millis();
        long pathTtl = table.settings().pathTtl().toMillis();
        List<PathView> paths = new ArrayList<>();
        for (Path p : e.paths()) {
            paths.add(new PathView(p.dataCenter(), p.rttMicros(), p.completion(), p.hops(), p.protocol().label(),
                    Instant.ofEpochMilli(p.measuredAt()).toString(), p.measuredBy(), p.freshAt(now, pathTtl)));
        }
        return new LdnsView(key.toString(), e.state().name().toLowerCase(), e.protocol() == null ? null : e.protocol().label(),
                ttlSeconds(e), Instant.ofEpochMilli(e.lastUsed()).toString(),
                e.retryAt() == 0 ? null : Instant.ofEpochMilli(e.retryAt()).toString(), paths);
    }

    /** The exact shape 3DNS prints (3dns-behaviour.md); cur_target_state is opaque there and here. */
    String threeDns(LdnsKey key, LdnsEntry e) {
        StringBuilder sb = new StringBuilder();
        sb.append("ldns {\n");
        sb.append("   address ").append(key).append('\n');
        sb.append("   cur_target_state ").append(targetState(e)).append('\n');
        sb.append("   ttl ").append(ttlSeconds(e)).append('\n');
        sb.append("   probe_protocol ").append(e.protocol() == null ? "none" : e.protocol().label()).append('\n');
        for (Path p : e.paths()) {
            sb.append("   path {\n");
            sb.append("      datacenter \"").append(p.dataCenter()).append("\"\n");
            sb.append("      cur_rtt ").append(p.rttMicros()).append('\n');
            sb.append("      cur_hops ").append(p.hops()).append('\n');
            sb.append("      cur_completion_rate ").append(p.completion()).append('\n');
            sb.append("      cur_last_hops ").append(p.hops()).append('\n');
            sb.append("   }\n");
        }
        sb.append("}\n");
        return sb.toString();
    }

    /** An opaque number that changes with the entry's state and last probe, as 3DNS's does. */
    private static long targetState(LdnsEntry e) {
        long newest = 0;
        for (Path p : e.paths()) {
            newest = Math.max(newest, p.measuredAt());
        }
        return ((newest / 1000) & 0x3FFF_FFFFL) | ((long) e.state().ordinal() << 30);
    }
}
