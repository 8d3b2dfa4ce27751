package dev.gslb.probe.schedule;

import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code probe:} section: how LDNS are measured, the proximity table's TTLs and bounds (their
 * keys, in the same mapping), and its H2 file (docs/operator-guide.md "Measure resolvers").
 *
 * @param store         the proximity table's H2 file ({@code var/proximity} beside the config)
 * @param flushInterval how often measurements are written to it
 */
public record Probing(ProbeSettings probes, ProximitySettings proximity, Path store, Duration flushInterval) {
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(5);

    public static final Setting<Path> STORE =
            Setting.path("store", "var/proximity", "H2 file (\".mv.db\" is added); relative to the config file");
    public static final Setting<Duration> FLUSH_INTERVAL =
            Setting.duration("flush-interval", DEFAULT_FLUSH_INTERVAL, "write-behind interval");

    public static final SettingsTable<Probing> SETTINGS =
            SettingsTable.of(Probing.class, ProbeSettings.SETTINGS, ProximitySettings.SETTINGS, STORE, FLUSH_INTERVAL);

    public static final Section<Probing> SECTION = Section.of("probe", SETTINGS);

    /** The defaults, with the store in {@code folder}. */
    public static Probing defaults(Path folder) {
        return SETTINGS.defaults(folder);
    }

    /** The same probing with its proximity table in another H2 file. */
    public Probing withStore(Path file) {
        return new Probing(probes, proximity, file, flushInterval);
    }
}
