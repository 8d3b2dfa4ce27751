package dev.gslb.probe.link;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Every traffic source by its key under a link's {@code traffic:}, where exactly one is given.
 * Adding a source is one {@link TrafficSource} class with its {@link Setting}, and one line here.
 */
public final class TrafficSources {
    private static final List<Source<?>> SOURCES = List.of(
            new Source<>(InterfaceCounters.SETTING, InterfaceCounters::new),
            new Source<>(SnmpCounters.SETTING, SnmpCounters::of));

    private TrafficSources() {}

    /** A source's key, and how what it says opens the source (once exactly one is given). */
    private record Source<W>(Setting<W> setting, Function<W, TrafficSource> open) {
        TrafficSource open(SettingsTable.Values v) {
            return open.apply(v.get(setting));
        }
    }

    /** The source keys, as the error names them. */
    private static String keys() {
        return "'interface:' (this host's) or 'snmp:' (a router's)";
    }

    /** The table of a link's {@code traffic:} ({@link TrafficSpec#SETTINGS}). */
    static SettingsTable<TrafficSpec> table(Setting<Duration> interval, Setting<Duration> window) {
        SettingsTable<TrafficSpec> table = SettingsTable.of(TrafficSpec.class, v -> {
            List<Source<?>> given = new ArrayList<>();
            for (Source<?> s : SOURCES) {
                if (v.given(s.setting())) {
                    given.add(s);
                }
            }
            if (given.size() != 1) {
                throw new IllegalArgumentException("traffic needs exactly one of " + keys());
            }
            Duration every = v.get(interval);
            return new TrafficSpec(
                    given.getFirst().open(v), every, v.given(window) ? v.get(window) : every.multipliedBy(3));
        });
        for (Source<?> s : SOURCES) {
            table.add(s.setting()); // read from files only: a source keeps no copy of what was written
        }
        return table.add(interval, TrafficSpec::interval).add(window, TrafficSpec::window);
    }
}
