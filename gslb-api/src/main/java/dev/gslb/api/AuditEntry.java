package dev.gslb.api;

/**
 * One line of the audit log: who changed what, from where, and how it ended. The admin API writes
 * one for every call that changes state (and every refused one); other code (a runtime state that
 * came from a peer) writes its own with {@link #of}.
 *
 * @param time   when, ISO-8601 UTC
 * @param who    the token's name, or the peer's instance name; null when no token was recognised
 * @param role   the token's role; null when none (a peer, no token)
 * @param source the client's address, or the peer's
 * @param method the HTTP method, or "PEER" for what a peer sent
 * @param route  the path (POST /ldns/probe), or what a peer changed
 * @param target what it acted on (the query: ip=..., or the name the route says)
 * @param before the state before, where the route can say it
 * @param after  the state after, where the route can say it
 * @param status the HTTP status answered (200 for a change that did not come over HTTP)
 * @param error  why it was refused or failed; null on success
 */
public record AuditEntry(
        String time,
        String who,
        Role role,
        String source,
        String method,
        String route,
        String target,
        String before,
        String after,
        int status,
        String error) {
    /** A change that did not come over the admin API: a peer's, with {@code who} its instance name. */
    public static AuditEntry of(
            java.time.Instant time,
            String who,
            String source,
            String what,
            String target,
            String before,
            String after) {
        return new AuditEntry(time.toString(), who, null, source, "PEER", what, target, before, after, 200, null);
    }
}
