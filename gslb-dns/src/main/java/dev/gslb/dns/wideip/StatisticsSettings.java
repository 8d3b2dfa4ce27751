package dev.gslb.dns.wideip;

import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;

/**
 * The {@code statistics:} section (docs/operator-guide.md "Read the statistics").
 *
 * @param maxWideIps wide IPs counted on their own; the rest are counted together as "other"
 */
public record StatisticsSettings(int maxWideIps) {
    public static final Setting<Integer> MAX_WIDE_IPS = Setting.integer(
            "max-wide-ips", 100, 1, 100_000, "wide IPs counted on their own; the rest together as \"other\"");

    public static final SettingsTable<StatisticsSettings> SETTINGS =
            SettingsTable.of(StatisticsSettings.class, MAX_WIDE_IPS);

    public static final StatisticsSettings DEFAULTS = SETTINGS.defaults();

    public static final Section<StatisticsSettings> SECTION = Section.of("statistics", SETTINGS);
}
