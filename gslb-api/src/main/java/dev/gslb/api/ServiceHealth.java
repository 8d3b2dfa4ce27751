package dev.gslb.api;

import java.util.List;

/**
 * GET /health: the instance serves (status "up", 200), or a listener of it cannot go on (status
 * "degraded", 503, each failure in a line), and what it serves.
 */
public record ServiceHealth(
        String status, String instance, String dataCenter, int zones, int wideIps, List<String> failures) {}
