package dev.gslb.settings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The keys of one settings record, each a {@link Setting} with the record's accessor for it, and
 * how the record is built from their values. {@link SettingsReader} binds a record that declares a
 * static {@code SettingsTable} field through it: absent keys take their defaults, every key's
 * bounds are checked here, an error points at its key, an unknown key is refused.
 *
 * @param <R> the settings record
 */
public final class SettingsTable<R> {
    private static final ClassValue<SettingsTable<?>> DECLARED = new ClassValue<>() {
        @Override
        protected SettingsTable<?> computeValue(Class<?> type) {
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == SettingsTable.class) {
                    try {
                        f.setAccessible(true);
                        return (SettingsTable<?>) f.get(null);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
            return null;
        }
    };

    private final Class<R> type;
    private final Map<String, Entry<R, ?>> entries = new LinkedHashMap<>();
    private final Function<Values, R> build;

    private record Entry<R, T>(Setting<T> setting, Function<R, T> read) {}

    private SettingsTable(Class<R> type, Function<Values, R> build) {
        this.type = type;
        this.build = build;
    }

    /** A table of {@code type}, built from the values by {@code build}; add its keys with {@link #add}. */
    public static <R> SettingsTable<R> of(Class<R> type, Function<Values, R> build) {
        return new SettingsTable<>(type, build);
    }

    /** The table {@code type} declares, or null. */
    static SettingsTable<?> declaredBy(Class<?> type) {
        return DECLARED.get(type);
    }

    /** {@code setting}, read back from a record by {@code read}. */
    public <T> SettingsTable<R> add(Setting<T> setting, Function<R, T> read) {
        if (entries.putIfAbsent(setting.key(), new Entry<>(setting, read)) != null) {
            throw new IllegalArgumentException("key " + setting.key() + " twice in " + type.getSimpleName());
        }
        return this;
    }

    public List<Setting<?>> settings() {
        return entries.values().stream().<Setting<?>>map(Entry::setting).toList();
    }

    /** The record of the defaults, paths relative to {@code folder}. */
    public R defaults(Path folder) {
        return build.apply(new Values(folder, Map.of()));
    }

    /** The record of the defaults (paths relative to the working folder). */
    public R defaults() {
        return defaults(Path.of(""));
    }

    /** {@code record} with {@code setting} set to {@code value} (checked), the other keys as they are. */
    public <T> R with(R record, Setting<T> setting, T value) {
        Map<Setting<?>, Object> given = new HashMap<>();
        for (Entry<R, ?> e : entries.values()) {
            given.put(e.setting(), e.read().apply(record));
        }
        given.put(setting, setting.checked(value));
        return build.apply(new Values(Path.of(""), given));
    }

    /** The values of one section: what the file gives, else the defaults. */
    public static final class Values {
        private final Path folder;
        private final Map<Setting<?>, Object> given;

        Values(Path folder, Map<Setting<?>, Object> given) {
            this.folder = folder;
            this.given = given;
        }

        @SuppressWarnings("unchecked")
        public <T> T get(Setting<T> setting) {
            return given.containsKey(setting) ? (T) given.get(setting) : setting.defaultIn(folder);
        }

        /** Whether a value was given (for defaults that depend on another key). */
        public boolean given(Setting<?> setting) {
            return given.get(setting) != null;
        }

        public Path folder() {
            return folder;
        }
    }

    StdDeserializer<R> binder() {
        return new Binder();
    }

    private final class Binder extends StdDeserializer<R> {
        Binder() {
            super(type);
        }

        @Override
        public R deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken()) {
                return type.cast(ctxt.handleUnexpectedToken(type, p));
            }
            Map<Setting<?>, Object> given = new HashMap<>();
            for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
                Entry<R, ?> entry = entries.get(key);
                if (entry == null) {
                    var unknown =
                            UnrecognizedPropertyException.from(p, type, key, new ArrayList<Object>(entries.keySet()));
                    unknown.prependPath(type, key);
                    throw unknown;
                }
                if (p.nextToken() == JsonToken.VALUE_NULL) {
                    continue; // a key with nothing after it keeps its default
                }
                try {
                    Object written = ctxt.readValue(p, entry.setting().written());
                    given.put(entry.setting(), accept(p, entry.setting(), written));
                } catch (JsonMappingException e) {
                    e.prependPath(type, key);
                    throw e;
                }
            }
            Path folder = (Path) ctxt.findInjectableValue(Path.class.getName(), null, null, null, null);
            try {
                return build.apply(new Values(folder, given));
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage(), e);
            }
        }

        private static Object accept(JsonParser p, Setting<?> setting, Object written) throws JsonMappingException {
            try {
                return setting.accept(written);
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage(), e);
            }
        }
    }
}
