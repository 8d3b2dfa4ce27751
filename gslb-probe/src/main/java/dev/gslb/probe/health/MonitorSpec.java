package dev.gslb.probe.health;

import java.time.Duration;

/**
 * A configured monitor: what check, how often, and the hysteresis. From UNKNOWN the first
 * completed check decides; after that it takes {@code downThreshold} failures in a row to go
 * DOWN and {@code upThreshold} successes in a row to come back UP, so a flapping target does not
 * flap the answer.
 */
public record MonitorSpec(
        String name, Check check, Duration interval, Duration timeout, int upThreshold, int downThreshold) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    public static final int DEFAULT_UP = 2;
    public static final int DEFAULT_DOWN = 3;

    public MonitorSpec {
        if (upThreshold < 1 || downThreshold < 1) {
            throw new IllegalArgumentException("monitor " + name + ": thresholds must be at least 1");
        }
        if (timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("monitor " + name + ": timeout must not exceed the interval");
        }
    }
}
