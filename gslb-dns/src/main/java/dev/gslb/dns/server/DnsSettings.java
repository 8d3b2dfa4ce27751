package dev.gslb.dns.server;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsTable;

/**
 * The {@code dns:} section: where the listeners run and how they answer, their keys in one mapping
 * (docs/configuration.md "Every key and its default").
 */
public record DnsSettings(ListenerSettings listener, AnswerSettings answers) {
    public static final SettingsTable<DnsSettings> SETTINGS =
            SettingsTable.of(DnsSettings.class, ListenerSettings.SETTINGS, AnswerSettings.SETTINGS);

    public static final DnsSettings DEFAULTS = SETTINGS.defaults();

    public static final Section<DnsSettings> SECTION = Section.of("dns", SETTINGS);
}
