package dev.gslb.api;

import java.util.List;

/**
 * What `gslb health` shows for one virtual server (GET /health/servers, a list of these).
 *
 * @param checked           where its monitors check it when that is not its address (its
 *     {@code translation:}, "10.0.0.10:8080"; answers still give {@code address}), or null
 * @param switchOverSeconds the longest time from its failure until answers change (slowest
 *     monitor's interval x down threshold + answer TTL), or null where the TTL is not known here
 * @param runtime what an operator set on it, its data center or its link ("disabled by alice at
 *     TIME: REASON"), or null when enabled (docs/operator-guide.md "Take something out of service")
 * @param waitingForResume  a manual-resume monitor took it DOWN and it stays DOWN until `gslb
 *     resume vs NAME` (docs/operator-guide.md "Bring a server back after a failure")
 * @param waitingSince      when that monitor took it DOWN, or null when it is not waiting
 * @param passedAgainAt     when its monitors passed again while it waits (resuming brings it UP at
 *     once), or null while they fail or when it is not waiting
 * @param load              its load as measured in its data center, or null when nothing measured it
 */
public record ServerStatus(
        String name,
        String address,
        String checked,
        String dataCenter,
        State state,
        String lastCheck,
        String reason,
        List<Monitor> monitors,
        Long switchOverSeconds,
        boolean waitingForResume,
        String waitingSince,
        String passedAgainAt,
        String runtime,
        Load load) {

    /** A server's or a monitor's state, written in lower case. */
    public enum State {
        UNKNOWN,
        UP,
        DOWN
    }

    /**
     * A server's load (docs: "Steer by server load"); each metric null while unknown, never zero.
     *
     * @param kbps      traffic, both directions, in kilobits per second (as limits are written)
     * @param overLimit why it is set aside ("vs-cnc over limit: connections 5200 > 5000"), or null
     * @param measuredBy the data center whose instance measured it
     */
    public record Load(
            Long connections,
            Double cpuPercent,
            Double memoryPercent,
            Double loadAverage,
            Long kbps,
            Long packetsPerSecond,
            Integer serversUp,
            String overLimit,
            String measuredAt,
            String measuredBy) {}

    /** One monitor of the server. */
    public record Monitor(String monitor, State state, int successes, int failures, String lastCheck, String reason) {}
}
