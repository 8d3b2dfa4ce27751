package dev.gslb.api;

import java.util.List;

/**
 * What `gslb health` shows for one virtual server (GET /health/servers, a list of these).
 *
 * @param switchOverSeconds the longest time from its failure until answers change (slowest
 *     monitor's interval x down threshold + answer TTL), or null where the TTL is not known here
 * @param runtime what an operator set on it, its data center or its link ("disabled by alice at
 *     TIME: REASON"), or null when enabled (README "Maintenance")
 */
public record ServerStatus(
        String name,
        String address,
        String dataCenter,
        State state,
        String lastCheck,
        String reason,
        List<Monitor> monitors,
        Long switchOverSeconds,
        String runtime) {

    /** A server's or a monitor's state, written in lower case. */
    public enum State {
        UNKNOWN,
        UP,
        DOWN
    }

    /** One monitor of the server. */
    public record Monitor(String monitor, State state, int successes, int failures, String lastCheck, String reason) {}
}
