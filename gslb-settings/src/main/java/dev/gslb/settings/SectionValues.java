package dev.gslb.settings;

import java.util.Map;

/**
 * The sections of one file, bound ({@link SettingsModule#sections}): each by its key, a section
 * the file leaves out as its default.
 *
 * @param byKey every section the file may hold, by its key
 */
public record SectionValues(Map<String, Object> byKey) {
    public SectionValues {
        byKey = Map.copyOf(byKey);
    }

    /** The value of {@code section}: what the file gives, else its default. */
    public <T> T get(Section<T> section) {
        if (!byKey.containsKey(section.key())) { // a section read without its line in the list the reader was given
            throw new IllegalArgumentException("'" + section.key() + "' is not a section of this file");
        }
        return section.cast(byKey.get(section.key()));
    }
}
