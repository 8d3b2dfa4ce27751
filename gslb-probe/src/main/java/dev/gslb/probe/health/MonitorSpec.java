package dev.gslb.probe.health;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;
import java.util.List;

/**
 * A configured monitor: what check, how often, and the hysteresis. From UNKNOWN the first
 * completed check decides; after that it takes {@code downThreshold} failures in a row to go
 * DOWN and {@code upThreshold} successes in a row to come back UP, so a flapping target does not
 * flap the answer. One entry of {@code monitors:} (docs/operator-guide.md "Check the virtual
 * servers") holds the keys below and those of its type's check ({@link MonitorTypes}).
 *
 * @param manualResume a virtual server this monitor took from UP to DOWN stays DOWN until an
 *     operator resumes it (F5's "manual resume", docs/operator-guide.md "Bring a server back after
 *     a failure"; {@link ManualResume})
 */
@JsonDeserialize(using = MonitorTypes.Binder.class)
public record MonitorSpec(
        String name,
        Check check,
        Duration interval,
        Duration timeout,
        int upThreshold,
        int downThreshold,
        boolean manualResume) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    public static final int DEFAULT_UP = 2;
    public static final int DEFAULT_DOWN = 3;

    public static final Setting<String> NAME = Setting.of("name", String.class, null, "what virtual servers call it")
            .derived("required");
    public static final Setting<String> TYPE =
            Setting.of("type", String.class, null, "the check (below)").derived("required");
    public static final Setting<Duration> INTERVAL =
            Setting.duration("interval", DEFAULT_INTERVAL, "a check this often");
    public static final Setting<Duration> TIMEOUT = Setting.duration(
                    "timeout", null, "a check slower than this fails; at most the interval")
            .derived("half the interval");
    public static final Setting<Integer> UP =
            Setting.integer("up", DEFAULT_UP, 1, 1000, "successes in a row that bring a DOWN target UP");
    public static final Setting<Integer> DOWN =
            Setting.integer("down", DEFAULT_DOWN, 1, 1000, "failures in a row that take an UP target DOWN");
    public static final Setting<Boolean> MANUAL_RESUME = Setting.of(
            "manual-resume",
            Boolean.class,
            false,
            "a virtual server it took DOWN stays DOWN until `gslb resume vs NAME`, even when it passes again");

    /** The keys every type takes. */
    public static final List<Setting<?>> COMMON = List.of(NAME, TYPE, INTERVAL, TIMEOUT, UP, DOWN, MANUAL_RESUME);

    /** A monitor that lets its targets come back by themselves. */
    public MonitorSpec(
            String name, Check check, Duration interval, Duration timeout, int upThreshold, int downThreshold) {
        this(name, check, interval, timeout, upThreshold, downThreshold, false);
    }

    public static final Section<List<MonitorSpec>> SECTION = Section.list("monitors", MonitorSpec.class);

    public MonitorSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a monitor needs 'name:'");
        }
        if (upThreshold < 1 || downThreshold < 1) {
            throw new IllegalArgumentException("monitor " + name + ": thresholds must be at least 1");
        }
        if (timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("monitor " + name + ": timeout must not exceed the interval");
        }
    }

    /** The table of a monitor of type {@code type}: the keys above, and those of its check. */
    static <C extends Check> SettingsTable<MonitorSpec> table(String type, SettingsTable<C> check, Class<C> kind) {
        return SettingsTable.of(MonitorSpec.class, v -> {
                    Duration every = v.get(INTERVAL);
                    return new MonitorSpec(
                            v.get(NAME),
                            v.get(check),
                            every,
                            v.given(TIMEOUT) ? v.get(TIMEOUT) : every.dividedBy(2),
                            v.get(UP),
                            v.get(DOWN),
                            v.get(MANUAL_RESUME));
                })
                .add(NAME, MonitorSpec::name)
                .add(TYPE, s -> type)
                .add(INTERVAL, MonitorSpec::interval)
                .add(TIMEOUT, MonitorSpec::timeout)
                .add(UP, MonitorSpec::upThreshold)
                .add(DOWN, MonitorSpec::downThreshold)
                .add(MANUAL_RESUME, MonitorSpec::manualResume)
                .include(check, s -> kind.cast(s.check()));
    }
}
