package dev.gslb.server.admin;

import dev.gslb.api.Role;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.server.maintenance.Maintenance;
import dev.gslb.server.maintenance.NearNames;
import java.util.List;
import java.util.Locale;

/**
 * The operator's resume of a virtual server a manual-resume monitor took DOWN
 * (docs/operator-guide.md "Bring a server back after a failure"): POST /vs/resume?name=NAME answers
 * the server's status after it (200), 404 for a name no server has (with the names near it), 409
 * for a server that is not waiting.
 */
public final class ResumeApi {
    private final HealthMonitor health;
    private final Maintenance maintenance;

    /** {@code maintenance} tells the peers of a resume, which resume the server too (the pair agrees). */
    public ResumeApi(HealthMonitor health, Maintenance maintenance) {
        this.health = health;
        this.maintenance = maintenance;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/vs/resume", Role.OPERATOR, r -> resume(r.required("name"), r.who())));
    }

    private AdminServer.Response resume(String name, String by) throws java.io.IOException {
        if (!health.targets().contains(name)) {
            List<String> near = NearNames.of(name, health.targets());
            return AdminServer.Response.error(
                    404,
                    "no virtual server is named " + name
                            + (near.isEmpty()
                                    ? " (gslb health lists them)"
                                    : "; did you mean " + String.join(", ", near) + "?"));
        }
        if (!health.resume(name)) {
            return AdminServer.Response.error(
                    409,
                    "virtual server " + name + " is not waiting for resume (it is "
                            + health.state(name).name().toLowerCase(Locale.ROOT)
                            + "): only a server a manual-resume monitor took from up to down waits");
        }
        maintenance.resumed(name, by);
        return health.statuses().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .map(s -> AdminServer.Response.ok(Replies.server(s, null, null)) // runtime state, load: gslb health
                        .changed(
                                "vs " + name,
                                "waiting for resume",
                                s.state().name().toLowerCase(Locale.ROOT)))
                .orElseGet(() -> AdminServer.Response.error(404, "virtual server " + name + " was removed meanwhile"));
    }
}
