package dev.gslb.server.admin;

import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.RuntimeChange;
import dev.gslb.api.RuntimeChanged;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.wideip.AnswerStatistics;
import dev.gslb.server.maintenance.Maintenance;
import dev.gslb.site.AdminState;
import dev.gslb.site.RuntimeTarget;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** Admin routes of the runtime states: list them; disable, drain or enable one target. */
public final class MaintenanceApi {
    /** The longest --for: a state meant to last longer is set without one. */
    private static final long MAX_FOR_SECONDS = 366L * 24 * 3600;

    private final Maintenance maintenance;
    private final Supplier<GslbConfig> config;
    private final Supplier<AnswerStatistics> statistics;

    public MaintenanceApi(Maintenance maintenance, Supplier<GslbConfig> config, Supplier<AnswerStatistics> statistics) {
        this.maintenance = maintenance;
        this.config = config;
        this.statistics = statistics;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/runtime", Role.VIEWER, r -> AdminServer.Response.ok(maintenance.view())),
                new AdminServer.Route(
                        "GET",
                        "/runtime/names",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(maintenance.names(RuntimeTarget.Kind.parse(r.required("kind"))))),
                change("disable", AdminState.DISABLED),
                change("drain", AdminState.DRAINED),
                change("enable", AdminState.ENABLED));
    }

    private AdminServer.Route change(String action, AdminState to) {
        return new AdminServer.Route(
                "POST",
                "/runtime/" + action,
                Role.OPERATOR,
                r -> {
                    RuntimeChange req = Json.MAPPER.readValue(r.body(), RuntimeChange.class);
                    if (req == null || req.kind() == null || req.name() == null) {
                        throw new IllegalArgumentException("give the kind and the name");
                    }
                    RuntimeTarget t = new RuntimeTarget(RuntimeTarget.Kind.parse(req.kind()), req.name());
                    if (t.kind() == RuntimeTarget.Kind.RESUME) {
                        throw new IllegalArgumentException("a server waiting for resume: gslb resume vs NAME");
                    }
                    long seconds = req.forSeconds() == null ? 0 : req.forSeconds();
                    if (seconds < 0 || seconds > MAX_FOR_SECONDS || seconds > 0 && to == AdminState.ENABLED) {
                        throw new IllegalArgumentException(
                                to == AdminState.ENABLED
                                        ? "enable takes no --for"
                                        : "--for must be between 1 s and 366 days");
                    }
                    try {
                        RuntimeChanged c = maintenance.change(
                                t,
                                to,
                                r.who(),
                                req.reason(),
                                seconds == 0 ? null : Duration.ofSeconds(seconds),
                                Boolean.TRUE.equals(req.force()),
                                answersLastMinute(t));
                        return AdminServer.Response.ok(c).changed(t.toString(), c.before(), c.after());
                    } catch (Maintenance.WouldEmpty e) {
                        return AdminServer.Response.error(409, e.getMessage());
                    }
                },
                AdminServer.Body.COMMAND);
    }

    /**
     * The answers {@code t} got in the last minute, from the answer statistics: about what a
     * disable or drain moves elsewhere. A pool member counts its server's answers in the wide IPs
     * whose answers that pool gave, at most the pool's own.
     */
    long answersLastMinute(RuntimeTarget t) {
        long now = System.currentTimeMillis();
        long n = 0;
        for (AnswerStatistics.WideIpView w : statistics.get().view(now, null)) {
            AnswerStatistics.Window m = w.lastMinute();
            n += switch (t.kind()) {
                case DATACENTER -> share(m.dataCenters(), t.name());
                case VS -> share(m.servers(), t.name());
                case POOL -> share(m.pools(), t.name());
                case WIDEIP -> w.name().equalsIgnoreCase(t.name()) ? m.answers() : 0;
                case RESUME -> 0;
                case LINK ->
                    config.get().site().servers().stream()
                            .filter(vs -> t.name().equals(vs.link()))
                            .mapToLong(vs -> share(m.servers(), vs.name()))
                            .sum();
                case MEMBER -> {
                    int slash = t.name().indexOf('/');
                    yield Math.min(
                            share(m.pools(), t.name().substring(0, slash)),
                            share(m.servers(), t.name().substring(slash + 1)));
                }
            };
        }
        return n;
    }

    private static long share(List<AnswerStatistics.Share> shares, String name) {
        for (AnswerStatistics.Share s : shares) {
            if (s.name().equals(name)) {
                return s.answers();
            }
        }
        return 0;
    }
}
