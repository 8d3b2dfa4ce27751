package dev.gslb.settings;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * One top-level section of a settings file: its key, the type its value binds to (a record, or a
 * list of records), and its value when the file leaves it out. The module that owns a section
 * declares it beside its record; a reader given the list of them ({@link SettingsModule#sections})
 * knows the file by its keys, not by one Java type listing them all.
 *
 * @param absent the value of a section left out or left empty ({@code key:} alone), given the
 *               file's folder (a default may be a path relative to it)
 * @param <T>    the value the section binds to
 */
public record Section<T>(String key, JavaType type, Function<Path, T> absent) {
    /** A section bound by {@code table}; left out, it is the table's defaults. */
    public static <T> Section<T> of(String key, SettingsTable<T> table) {
        return of(key, table.type(), table::defaults);
    }

    /** A section bound to {@code type}; left out, it is {@code absent} of the file's folder. */
    public static <T> Section<T> of(String key, Class<T> type, Function<Path, T> absent) {
        return new Section<>(key, TypeFactory.defaultInstance().constructType(type), absent);
    }

    /** A section holding a list of {@code element}; left out, an empty list. */
    public static <E> Section<List<E>> list(String key, Class<E> element) {
        return new Section<>(
                key, TypeFactory.defaultInstance().constructCollectionType(List.class, element), folder -> List.of());
    }

    @SuppressWarnings("unchecked")
    T cast(Object value) {
        return (T) value;
    }
}
