package dev.gslb.settings;

/** What binds one component of a settings record: a key, or a record whose keys stand in the same mapping. */
public sealed interface SettingsPart permits Setting, SettingsTable {}
