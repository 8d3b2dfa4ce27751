package dev.gslb.probe.link;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * How a link's traffic is read: the source, how often it is polled, and the window the rate is
 * averaged over (docs/operator-guide.md "Manage ISP links"; defaults 10 s and three polls).
 */
public record TrafficSpec(TrafficSource source, Duration interval, Duration window) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

    public static final Setting<Duration> INTERVAL = Setting.duration(
                    "interval", DEFAULT_INTERVAL, "how often the counters are read")
            .check("at least 100ms", i -> {
                if (i.compareTo(Duration.ofMillis(100)) < 0) {
                    throw new IllegalArgumentException("traffic 'interval:' must be at least 100ms");
                }
            });
    public static final Setting<Duration> WINDOW = Setting.duration(
                    "window", null, "the rate is averaged over this (at least one interval)")
            .derived("three intervals");

    /** A link's {@code traffic:}: one source of {@link TrafficSources}, and the keys above. */
    public static final SettingsTable<TrafficSpec> SETTINGS = TrafficSources.table(INTERVAL, WINDOW);

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
