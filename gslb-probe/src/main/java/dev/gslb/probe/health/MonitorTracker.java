package dev.gslb.probe.health;

import dev.gslb.site.HealthState;

/**
 * The hysteresis state of one monitor on one target ({@link MonitorSpec}): from UNKNOWN the first
 * result decides, then {@code down} failures in a row take it DOWN and {@code up} successes in a
 * row bring it back UP. Written by its monitor's thread only; read by anyone.
 */
final class MonitorTracker {
    final MonitorSpec spec;
    volatile HealthState state = HealthState.UNKNOWN;
    volatile int successes;
    volatile int failures;
    volatile long lastCheck;
    volatile String reason = "not checked yet";

    MonitorTracker(MonitorSpec spec) {
        this.spec = spec;
    }

    /** Applies one result; true when the state changed. */
    boolean apply(CheckResult r, long now) {
        lastCheck = now;
        reason = r.reason();
        HealthState before = state;
        if (r.ok()) {
            successes++;
            failures = 0;
            if (state == HealthState.UNKNOWN || state == HealthState.DOWN && successes >= spec.upThreshold()) {
                state = HealthState.UP;
            }
        } else {
            failures++;
            successes = 0;
            if (state == HealthState.UNKNOWN || state == HealthState.UP && failures >= spec.downThreshold()) {
                state = HealthState.DOWN;
            }
        }
        return state != before;
    }
}
