package dev.gslb.probe.load;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Every load source by its key under a virtual server's {@code load:}, where one or more are
 * given and each metric comes from one of them. Adding a source is one {@link LoadSource} class
 * with its {@link Setting}, and one line here.
 */
public final class LoadSources {
    private static final List<Source<?>> SOURCES = List.of(
            new Source<>(NginxStatus.SETTING, NginxStatus::new),
            new Source<>(HaproxyStats.SETTING, HaproxyStats::of),
            new Source<>(PrometheusMetric.SETTING, PrometheusMetric::of),
            new Source<>(SnmpLoad.SETTING, SnmpLoad::of));

    private LoadSources() {}

    /** A source's key, and how what it says opens the source. */
    private record Source<W>(Setting<W> setting, Function<W, LoadSource> open) {
        LoadSource open(SettingsTable.Values v) {
            return open.apply(v.get(setting));
        }
    }

    /** The source keys, as errors name them. */
    public static List<String> keys() {
        return SOURCES.stream().map(s -> s.setting().key()).toList();
    }

    /** Adds every source's key to {@code table} (the table of {@code load:}). */
    public static <T extends Record> SettingsTable<T> addTo(SettingsTable<T> table) {
        for (Source<?> s : SOURCES) {
            table.add(s.setting()); // read from files only: a source keeps no copy of what was written
        }
        return table;
    }

    /**
     * The sources {@code v} gives, opened: at least one, and no metric read by two (which one
     * would count is not for us to guess).
     */
    public static List<LoadSource> open(SettingsTable.Values v) {
        List<LoadSource> opened = new ArrayList<>();
        Set<Metric> seen = EnumSet.noneOf(Metric.class);
        for (Source<?> s : SOURCES) {
            if (v.given(s.setting())) {
                LoadSource source = s.open(v);
                for (Metric m : source.metrics()) {
                    if (!seen.add(m)) {
                        throw new IllegalArgumentException(
                                "load: " + m.key() + " is read by two sources; give it from one");
                    }
                }
                opened.add(source);
            }
        }
        if (opened.isEmpty()) {
            throw new IllegalArgumentException("load needs at least one of " + keys());
        }
        return opened;
    }
}
