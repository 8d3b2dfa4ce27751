package dev.gslb.server.admin;

import dev.gslb.api.Json;
import dev.gslb.api.LdnsImport;
import dev.gslb.api.LdnsImported;
import dev.gslb.api.LdnsView;
import dev.gslb.api.ProbeReport;
import dev.gslb.api.Refusal;
import dev.gslb.api.Removed;
import dev.gslb.api.Role;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.ProbeResult;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.proximity.ThreeDnsFormat;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.topology.Address;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Admin routes of the LDNS proximity table: list, show, probe, delete, import a 3DNS dump. */
public final class LdnsApi {
    private final ProximityTable table;
    private final ProbeScheduler scheduler;
    private final java.util.Set<String> dataCenters;

    public LdnsApi(ProximityTable table, ProbeScheduler scheduler, java.util.Set<String> dataCenters) {
        this.table = table;
        this.scheduler = scheduler;
        this.dataCenters = java.util.Set.copyOf(dataCenters);
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/ldns/list", Role.VIEWER, r -> list(r.param("dc"), r.param("format"))),
                new AdminServer.Route(
                        "GET",
                        "/ldns/show",
                        Role.VIEWER,
                        r -> show(Address.parse(r.required("ip")), r.param("format"))),
                new AdminServer.Route(
                        "POST", "/ldns/probe", Role.OPERATOR, r -> probe(r.required("ip"), r.param("protocol"))),
                new AdminServer.Route(
                        "POST",
                        "/ldns/import",
                        Role.OPERATOR,
                        r -> importDump(Json.MAPPER.readValue(r.body(), LdnsImport.class)),
                        AdminServer.Body.UPLOAD),
                new AdminServer.Route("POST", "/ldns/delete", Role.OPERATOR, r -> {
                    Address key = Address.parse(r.required("ip"));
                    LdnsEntry before = table.get(key);
                    boolean removed = table.remove(key);
                    return AdminServer.Response.json(
                                    removed ? 200 : 404, Json.write(new Removed(removed, key.toString())))
                            .changed(
                                    key.toString(),
                                    before == null ? null : before.paths().length + " paths",
                                    removed ? "removed" : null);
                }));
    }

    private AdminServer.Response list(String dc, String format) {
        List<Map.Entry<Address, LdnsEntry>> rows = new ArrayList<>();
        for (Map.Entry<Address, LdnsEntry> e : table.entries()) {
            if (dc == null || e.getValue().path(dc) != null) {
                rows.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        rows.sort(Comparator.comparing(
                        (Map.Entry<Address, LdnsEntry> e) -> e.getKey().hi())
                .thenComparing(e -> e.getKey().lo(), Long::compareUnsigned));
        if ("3dns".equals(format)) {
            StringBuilder sb = new StringBuilder();
            rows.forEach(e -> sb.append(ThreeDnsFormat.write(e.getKey(), e.getValue(), ttlSeconds(e.getValue()))));
            return text(sb.toString());
        }
        return AdminServer.Response.ok(
                rows.stream().map(e -> view(e.getKey(), e.getValue())).toList());
    }

    private AdminServer.Response show(Address key, String format) {
        LdnsEntry e = table.get(key);
        if (e == null) {
            return AdminServer.Response.error(404, key + " is not in the proximity table");
        }
        return "3dns".equals(format)
                ? text(ThreeDnsFormat.write(key, e, ttlSeconds(e)))
                : AdminServer.Response.ok(view(key, e));
    }

    /** Reads the whole dump first: a syntax error anywhere refuses it, and nothing is applied. */
    private AdminServer.Response importDump(LdnsImport request) {
        if (request == null || request.text() == null) {
            throw new IllegalArgumentException("give {\"source\": NAME, \"text\": the dump}");
        }
        ThreeDnsFormat.Dump dump;
        try {
            dump = ThreeDnsFormat.read(
                    request.source() == null ? "dump" : request.source(), request.text(), dataCenters);
        } catch (IllegalArgumentException e) {
            return AdminServer.Response.refused(
                    new Refusal(List.of(e.getMessage()), "the table in service is unchanged"));
        }
        int paths = table.importDump(dump);
        return AdminServer.Response.ok(new LdnsImported(dump.entries().size(), paths, dump.skipped()));
    }

    private static AdminServer.Response text(String body) {
        return new AdminServer.Response(200, body, "text/plain; charset=utf-8");
    }

    private AdminServer.Response probe(String ip, String protocol) throws InterruptedException {
        Address key = Address.parse(ip);
        ProbeResult r = scheduler.probeNow(key.inetAddress(), protocol == null ? null : ProbeProtocol.parse(protocol));
        return AdminServer.Response.ok(new ProbeReport(
                key.toString(),
                r.probeable(),
                r.protocol() == null ? null : r.protocol().label(),
                r.rttMicros(),
                r.completion(),
                r.hops(),
                r.sent(),
                r.replies(),
                view(key, table.get(key))));
    }

    private long ttlSeconds(LdnsEntry e) {
        long left = e.lastUsed()
                + table.settings().inactiveTtl().toMillis()
                - table.clock().millis();
        return Math.max(0, left / 1000);
    }

    LdnsView view(Address key, LdnsEntry e) {
        if (e == null) {
            return null;
        }
        long now = table.clock().millis();
        long pathTtl = table.settings().pathTtl().toMillis();
        List<LdnsView.PathView> paths = new ArrayList<>();
        for (Path p : e.paths()) {
            paths.add(new LdnsView.PathView(
                    p.dataCenter(),
                    p.rttMicros(),
                    p.jitterMicros(),
                    p.completion(),
                    p.hops(),
                    p.protocol() == null ? null : p.protocol().label(),
                    Instant.ofEpochMilli(p.measuredAt()).toString(),
                    p.measuredBy(),
                    p.freshAt(now, pathTtl)));
        }
        return new LdnsView(
                key.toString(),
                e.state().name().toLowerCase(Locale.ROOT),
                e.protocol() == null ? null : e.protocol().label(),
                ttlSeconds(e),
                Instant.ofEpochMilli(e.lastUsed()).toString(),
                e.retryAt() == 0 ? null : Instant.ofEpochMilli(e.retryAt()).toString(),
                e.keptDataCenterName(),
                paths);
    }
}
