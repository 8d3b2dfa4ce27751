package dev.gslb.config.admin;

import dev.gslb.settings.Bounds;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * What one client, or all of them, may hold of the admin API (docs/security.md "The admin port"):
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
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.integer(
            "max-connections", 256, 1, 65_536, "open at once; when full, the idlest gives way to a new one");
    public static final Setting<Integer> MAX_CONNECTIONS_PER_SOURCE =
            Setting.integer("max-connections-per-source", 32, 1, 65_536, "from one address; more are closed at once");
    public static final Setting<Integer> MAX_REQUESTS =
            Setting.integer("max-requests", 32, 1, 4096, "being read or answered at once; more get 503");
    public static final Setting<Integer> MAX_REQUESTS_PER_SOURCE =
            Setting.integer("max-requests-per-source", 8, 1, 4096, "the same, from one address");
    public static final Setting<Duration> HEADER_TIMEOUT =
            positive("header-timeout", Duration.ofSeconds(10), "a request head must arrive within this");
    public static final Setting<Duration> BODY_TIMEOUT =
            positive("body-timeout", Duration.ofSeconds(60), "a request body within this of its head, else 408");

    public static final SettingsTable<AdminLimits> SETTINGS = SettingsTable.of(
            AdminLimits.class,
            MAX_CONNECTIONS,
            MAX_CONNECTIONS_PER_SOURCE,
            MAX_REQUESTS,
            MAX_REQUESTS_PER_SOURCE,
            HEADER_TIMEOUT,
            BODY_TIMEOUT);

    public static final AdminLimits DEFAULTS = SETTINGS.defaults();

    /** Across keys: one source holds no more than all of them. */
    public AdminLimits {
        Bounds.within("admin.max-connections-per-source", maxConnectionsPerSource, 1, maxConnections);
        Bounds.within("admin.max-requests-per-source", maxRequestsPerSource, 1, maxRequests);
    }

    private static Setting<Duration> positive(String key, Duration defaultValue, String doc) {
        return Setting.duration(key, defaultValue, doc).check("above 0", d -> {
            if (d.toMillis() < 1) {
                throw new IllegalArgumentException("admin.header-timeout and admin.body-timeout must be positive");
            }
        });
    }
}
