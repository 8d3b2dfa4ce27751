package dev.gslb.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.api.AuditEntry;
import dev.gslb.api.Json;
import dev.gslb.server.access.Caller;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One admin request as the audit log sees it: what was asked, from where, by whom.
 *
 * @param method the HTTP method
 * @param path   the route's path
 * @param query  the query's parameters (what most routes act on: ip=..., name=...)
 * @param source the client's address
 * @param caller who its token names; null when it names none
 */
record AdminCall(String method, String path, Map<String, String> query, String source, Caller caller) {
    /** The most of a refusal's message the log keeps (the log cuts each field again). */
    private static final int ERROR_BODY = 4096;

    /**
     * Whether the audit log keeps it: every call that may change state (any method but GET and
     * HEAD), whatever its answer, and a read refused for who is asking (401, 403).
     */
    boolean audited(int status) {
        boolean read = method.equals("GET") || method.equals("HEAD");
        return !read || status == 401 || status == 403;
    }

    AuditEntry entry(AdminServer.Response r, Instant time) {
        AdminServer.Change c = r.change();
        return new AuditEntry(
                time.truncatedTo(ChronoUnit.MILLIS).toString(),
                caller == null ? null : caller.name(),
                caller == null ? null : caller.role(),
                source,
                method,
                path,
                c != null && c.target() != null ? c.target() : target(),
                c == null ? null : c.before(),
                c == null ? null : c.after(),
                r.status(),
                r.status() >= 400 ? error(r) : null);
    }

    /** The query as "ip=192.0.2.1 protocol=udp", by name; null when there is none. */
    private String target() {
        if (query.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        new TreeMap<>(query).forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    /** The refusal's message: {"error": ...}, a 422's errors joined, or the plain text. */
    private static String error(AdminServer.Response r) {
        String body = r.body().length() > ERROR_BODY ? r.body().substring(0, ERROR_BODY) : r.body();
        if (r.contentType().startsWith("application/json")) {
            try {
                JsonNode n = Json.MAPPER.readTree(body);
                if (n.hasNonNull("error")) {
                    return n.get("error").asText();
                }
                if (n.has("errors")) {
                    List<String> errors = new ArrayList<>();
                    n.get("errors").forEach(e -> errors.add(e.asText()));
                    return String.join("; ", errors);
                }
            } catch (java.io.IOException | RuntimeException e) {
                // a cut or odd body: its text, below
            }
        }
        return body.strip();
    }
}
