package dev.gslb.server.admin;

import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.ServiceHealth;
import dev.gslb.dns.answer.Authority;
import dev.gslb.server.metrics.Exposition;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * GET /health (is this instance serving: "up", or "degraded" with the listeners that cannot go
 * on) and GET /metrics (Prometheus' text format; {@code ?all=1} adds the counters still at zero).
 */
public final class ServiceApi {
    private final String instance;
    private final String dataCenter;
    private final Supplier<Authority> authority;
    private final Supplier<List<String>> failures;
    private final Function<Boolean, String> scrape;

    public ServiceApi(
            String instance,
            String dataCenter,
            Supplier<Authority> authority,
            Supplier<List<String>> failures,
            Function<Boolean, String> scrape) {
        this.instance = instance;
        this.dataCenter = dataCenter;
        this.authority = authority;
        this.failures = failures;
        this.scrape = scrape;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/health", Role.VIEWER, r -> health()),
                new AdminServer.Route(
                        "GET",
                        "/metrics",
                        Role.VIEWER,
                        r -> new AdminServer.Response(
                                200, scrape.apply("1".equals(r.param("all"))), Exposition.CONTENT_TYPE)));
    }

    private AdminServer.Response health() {
        List<String> failures = this.failures.get();
        Authority a = authority.get();
        return AdminServer.Response.json(
                failures.isEmpty() ? 200 : 503,
                Json.compact(new ServiceHealth(
                        failures.isEmpty() ? "up" : "degraded",
                        instance,
                        dataCenter,
                        a.zones().all().size(),
                        a.wideIps().size(),
                        failures)));
    }
}
