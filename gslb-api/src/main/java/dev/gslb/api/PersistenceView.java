package dev.gslb.api;

import java.util.List;

/**
 * GET /persist, `gslb persist list`: the live persistence entries (wide IPs with a
 * persistence-ttl), sorted by wide IP and network, at most {@code limit} of {@code total}.
 *
 * @param total   how many live entries match
 * @param limit   the most an answer lists
 * @param entries the first {@code limit} of them
 */
public record PersistenceView(int total, int limit, List<Entry> entries) {
    /**
     * One client network's remembered answer.
     *
     * @param wideIp  the wide IP, without the final dot
     * @param network the client network's address (client subnet or LDNS cut to persistence-prefix-v4/-v6)
     * @param server  the virtual server it is answered with
     * @param expires when the entry ends (ISO-8601)
     */
    public record Entry(String wideIp, String network, String server, String expires) {}
}
