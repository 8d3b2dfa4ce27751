package dev.gslb.probe.load;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A virtual server's {@code load:}: the sources its load is read from ({@link LoadSources}, each
 * metric from one), how often they are read, the window gauges are averaged and counters turned
 * into rates over, and how long one read may take. Defaults as a link's traffic (10 s, three
 * polls): a limit then reacts within about half a minute, and one odd poll does not flip it.
 */
public record LoadSpec(List<LoadSource> sources, Duration interval, Duration window, Duration timeout) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

    public static final Setting<Duration> INTERVAL = Setting.duration(
                    "interval", DEFAULT_INTERVAL, "how often the load sources are read")
            .check("at least 1s", i -> {
                if (i.compareTo(MIN_INTERVAL) < 0) {
                    throw new IllegalArgumentException("load 'interval:' must be at least 1s");
                }
            });
    public static final Setting<Duration> WINDOW = Setting.duration(
                    "window",
                    null,
                    "gauges are averaged and counters turned into rates over this (at least one interval)")
            .derived("three intervals");
    public static final Setting<Duration> TIMEOUT = Setting.duration(
                    "timeout", null, "a read that takes longer fails: its metrics are unknown (at most the interval)")
            .derived("half the interval");

    /** A server's {@code load:}: the sources of {@link LoadSources}, and the keys above. */
    public static final SettingsTable<LoadSpec> SETTINGS = LoadSources.addTo(SettingsTable.of(LoadSpec.class, v -> {
                Duration every = v.get(INTERVAL);
                Duration window = v.given(WINDOW) ? v.get(WINDOW) : every.multipliedBy(3);
                Duration timeout = v.given(TIMEOUT) ? v.get(TIMEOUT) : every.dividedBy(2);
                return new LoadSpec(LoadSources.open(v), every, window, timeout);
            }))
            .add(INTERVAL, LoadSpec::interval)
            .add(WINDOW, LoadSpec::window)
            .add(TIMEOUT, LoadSpec::timeout);

    public LoadSpec {
        sources = List.copyOf(sources);
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("load needs at least one of " + LoadSources.keys());
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("load 'interval:' must be at least 1s");
        }
        if (window.compareTo(interval) < 0) {
            throw new IllegalArgumentException(
                    "load 'window:' (" + show(window) + ") must be at least one interval (" + show(interval) + ")");
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("load 'timeout:' (" + show(timeout)
                    + ") must be above 0 and at most the interval (" + show(interval) + ")");
        }
    }

    private static String show(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** Every metric some source reads. */
    public Set<Metric> metrics() {
        Set<Metric> all = EnumSet.noneOf(Metric.class);
        sources.forEach(s -> all.addAll(s.metrics()));
        return all;
    }

    /** The readings the window covers (window / interval, at least 1). */
    public int samples() {
        return (int) Math.clamp(window.toMillis() / interval.toMillis(), 1, 1000);
    }

    /**
     * Whether {@code other} reads the same sources the same way: a reload that leaves a server's
     * {@code load:} as it was keeps its poller and its window (sources are compared as the
     * operator reads them).
     */
    public boolean sameAs(LoadSpec other) {
        return other != null
                && interval.equals(other.interval)
                && window.equals(other.window)
                && timeout.equals(other.timeout)
                && sources.stream()
                        .map(LoadSource::describe)
                        .toList()
                        .equals(other.sources.stream().map(LoadSource::describe).toList())
                && sources.stream()
                        .map(LoadSource::metrics)
                        .toList()
                        .equals(other.sources.stream().map(LoadSource::metrics).toList());
    }

    /** What the operator reads: {@code nginx http://..., every 10s over 30s}. */
    public String describe() {
        return String.join(", ", sources.stream().map(LoadSource::describe).toList()) + ", every "
                + interval.toSeconds() + "s over " + window.toSeconds() + "s";
    }
}
