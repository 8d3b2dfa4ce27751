package dev.gslb.config.admin;

import dev.gslb.settings.Bounds;
import java.time.Duration;

/**
 * What one client, or all of them, may hold of the admin API (README "Admin API and metrics"):
 * the caps stay far below the process's descriptors, so no flood of admin connections can take
 * DNS over TCP's.
 *
 * @param maxConnections          connections open at once; when full, the idlest gives way to a new one
 * @param maxConnectionsPerSource connections from one address; more are closed at once
 * @param maxRequests             requests being read or answered at once; more get 503
 * @param maxRequestsPerSource    the same, from one address
 * @param headerTimeout           a connection must send a whole request head within this (from when it
 *                                opens, or its last answer), else it is closed
 * @param bodyTimeout             a request's body must arrive whole within this of its head, else 408
 */
public record AdminLimits(
        int maxConnections,
        int maxConnectionsPerSource,
        int maxRequests,
        int maxRequestsPerSource,
        Duration headerTimeout,
        Duration bodyTimeout) {
    public static final AdminLimits DEFAULTS =
            new AdminLimits(256, 32, 32, 8, Duration.ofSeconds(10), Duration.ofSeconds(60));

    public AdminLimits {
        Bounds.within("admin.max-connections", maxConnections, 1, 65_536);
        Bounds.within("admin.max-connections-per-source", maxConnectionsPerSource, 1, maxConnections);
        Bounds.within("admin.max-requests", maxRequests, 1, 4096);
        Bounds.within("admin.max-requests-per-source", maxRequestsPerSource, 1, maxRequests);
        if (headerTimeout.toMillis() < 1 || bodyTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("admin.header-timeout and admin.body-timeout must be positive");
        }
    }
}
