package dev.gslb.api;

import java.util.List;

/**
 * One LDNS of the proximity table (GET /ldns/list, /ldns/show). {@code keptDataCenter}: the data
 * center its lowest-round-trip-time answers stay with under the RTT margin, null when none is kept
 * (no paths yet, the margin off, read from the store and not measured since).
 */
public record LdnsView(
        String address,
        String state,
        String probeProtocol,
        long ttl,
        String lastUsed,
        String retryAt,
        String keptDataCenter,
        List<PathView> paths) {
    /** One data center's path to the LDNS; {@code jitterMicros} 0 when not known here (a peer's path). */
    public record PathView(
            String dataCenter,
            int rttMicros,
            int jitterMicros,
            int completion,
            int hops,
            String protocol,
            String measuredAt,
            String measuredBy,
            boolean fresh) {}
}
