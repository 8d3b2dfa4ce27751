package dev.gslb.server.admin;

import dev.gslb.api.ConfigDiff;
import dev.gslb.api.ConfigShown;
import dev.gslb.api.ConfigStatus;
import dev.gslb.api.Refusal;
import dev.gslb.api.Reloaded;
import dev.gslb.api.Role;
import dev.gslb.settings.SettingsException;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POST /config/reload (re-read the configuration file), GET /config/status (the generation in
 * service and each peer's), GET /config/diff?peer=NAME (how a peer's shared part differs) and GET
 * /config/show (the configuration in service, defaults filled in, secrets redacted).
 */
public final class ConfigApi {
    /** The server's log, as before the route had a class of its own. */
    private static final Logger log = LoggerFactory.getLogger("dev.gslb.server.GslbServer");

    /** Re-reads the configuration file and applies it. */
    @FunctionalInterface
    public interface Reload {
        Reloaded reload() throws SettingsException;
    }

    /** The configuration in service, as shown. */
    @FunctionalInterface
    public interface Show {
        ConfigShown show() throws SettingsException;
    }

    private final Reload reload;
    private final Supplier<ConfigStatus> status;
    private final BiFunction<String, Integer, List<String>> diff;
    private final Show show;

    public ConfigApi(
            Reload reload, Supplier<ConfigStatus> status, BiFunction<String, Integer, List<String>> diff, Show show) {
        this.reload = reload;
        this.status = status;
        this.diff = diff;
        this.show = show;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/config/reload", Role.ADMIN, r -> reload()),
                new AdminServer.Route("GET", "/config/status", Role.VIEWER, r -> AdminServer.Response.ok(status.get())),
                new AdminServer.Route("GET", "/config/show", Role.VIEWER, r -> shown()),
                new AdminServer.Route("GET", "/config/diff", Role.ADMIN, r -> {
                    String peer = r.param("peer");
                    if (peer == null || peer.isBlank()) {
                        throw new IllegalArgumentException("give ?peer=NAME");
                    }
                    List<String> lines = diff.apply(peer, 200);
                    String state = status.get().peers().stream()
                            .filter(p -> p.name().equals(peer))
                            .map(ConfigStatus.Peer::state)
                            .findFirst()
                            .orElse(null);
                    return AdminServer.Response.ok(new ConfigDiff(peer, lines.isEmpty(), lines, state));
                }));
    }

    private AdminServer.Response shown() {
        try {
            return AdminServer.Response.ok(show.show());
        } catch (SettingsException e) { // it loaded once: only a bug gets here
            log.warn("the configuration in service cannot be shown: {}", e.getMessage());
            return AdminServer.Response.error(500, "the configuration in service cannot be shown: " + e.getMessage());
        }
    }

    private AdminServer.Response reload() {
        ConfigStatus before = status.get();
        try {
            Reloaded after = reload.reload();
            return AdminServer.Response.ok(after)
                    .changed(
                            null,
                            generation(before.generation(), before.digest()),
                            generation(after.generation(), after.digest()));
        } catch (SettingsException | IllegalArgumentException e) {
            log.warn(
                    "configuration reload refused; the previous one stays in service: {}",
                    String.join("; ", e.getMessage().lines().toList()));
            return AdminServer.Response.refused(
                    new Refusal(e.getMessage().lines().toList(), "the configuration in service is the previous one"));
        }
    }

    /** A configuration as the audit log writes it: "generation 4 (digest 1f2e3d4c5b6a)". */
    private static String generation(long generation, String digest) {
        String d = digest == null ? "-" : digest.substring(0, Math.min(12, digest.length()));
        return "generation " + generation + " (digest " + d + ")";
    }
}
