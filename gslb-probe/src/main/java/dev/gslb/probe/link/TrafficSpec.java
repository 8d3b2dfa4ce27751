package dev.gslb.probe.link;

import java.time.Duration;

/**
 * How a link's traffic is read: the source, how often it is polled, and the window the rate is
 * averaged over (README "Links"; defaults 10 s and three polls).
 */
public record TrafficSpec(TrafficSource source, Duration interval, Duration window) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

    public TrafficSpec {
        if (interval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("traffic 'interval:' must be at least 100ms");
        }
        if (window.compareTo(interval) < 0) {
            throw new IllegalArgumentException("traffic 'window:' must be at least one interval");
        }
    }

    /** The interval rates the average covers. */
    public int samples() {
        return (int) Math.min(1000, window.toMillis() / interval.toMillis());
    }
}
