package dev.gslb.server.admin;

import dev.gslb.api.Role;
import dev.gslb.server.audit.AuditLog;
import dev.gslb.settings.SettingsModule;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * GET /audit?since=1h&limit=N (`gslb audit`): the audit log's newest entries. An operator may read
 * it: whoever acts on the running instance needs to see who acted before (who drained this
 * server?); a viewer (a dashboard's token) may not learn the other tokens' names and addresses.
 */
public final class AuditApi {
    static final int DEFAULT_LIMIT = 1000;
    static final int MAX_LIMIT = 10_000;

    private final AuditLog log;
    private final Clock clock;

    public AuditApi(AuditLog log, Clock clock) {
        this.log = log;
        this.clock = clock;
    }

    public List<AdminServer.Route> routes() {
        return List.of(new AdminServer.Route("GET", "/audit", Role.OPERATOR, r -> {
            Instant since = since(r.param("since"));
            int limit = r.param("limit") == null
                    ? DEFAULT_LIMIT
                    : Integer.parseInt(r.param("limit").strip());
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit is 1.." + MAX_LIMIT + ", not " + limit);
            }
            return AdminServer.Response.ok(log.since(since, limit));
        }));
    }

    /** Now less {@code text} (1h, 30m, 2d), or the beginning when none is given. */
    private Instant since(String text) {
        if (text == null || text.isBlank()) {
            return Instant.EPOCH;
        }
        Instant now = clock.instant();
        Duration back = SettingsModule.duration(text.strip());
        return back.compareTo(Duration.between(Instant.EPOCH, now)) >= 0 ? Instant.EPOCH : now.minus(back);
    }
}
