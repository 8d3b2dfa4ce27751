package dev.gslb.settings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The keys of one settings record, each a {@link Setting} with the record's accessor for it, and
 * how the record is built from their values. {@link SettingsReader} binds a record that declares a
 * static {@code SettingsTable} field of its own type through it: absent keys take their defaults, every key's
 * bounds are checked here, an error points at its key, an unknown key is refused.
 *
 * @param <R> the settings record
 */
public final class SettingsTable<R> implements SettingsPart {
    private static final ClassValue<SettingsTable<?>> DECLARED = new ClassValue<>() {
        @Override
        protected SettingsTable<?> computeValue(Class<?> type) {
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == SettingsTable.class) {
                    try {
                        f.setAccessible(true);
                        SettingsTable<?> table = (SettingsTable<?>) f.get(null);
                        if (table != null && table.type == type) {
                            return table;
                        }
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

    /**
     * A table of the record {@code type} whose components, in order, are bound by {@code parts}:
     * a {@link Setting} each, or the table of a record whose keys stand in the same mapping (the
     * {@code probe:} section holds the probe and proximity settings). The record's canonical
     * constructor builds it and checks its rules across keys.
     */
    public static <R extends Record> SettingsTable<R> of(Class<R> type, SettingsPart... parts) {
        RecordComponent[] components = type.getRecordComponents();
        if (components.length != parts.length) {
            throw new IllegalArgumentException(
                    type.getSimpleName() + " has " + components.length + " components, not " + parts.length);
        }
        Constructor<R> canonical;
        try {
            canonical = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            canonical.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        SettingsTable<R> table = new SettingsTable<>(type, v -> {
            Object[] args = new Object[parts.length];
            for (int i = 0; i < parts.length; i++) {
                args[i] = parts[i] instanceof Setting<?> s ? v.get(s) : v.get((SettingsTable<?>) parts[i]);
            }
            return call(canonical, args);
        });
        for (int i = 0; i < parts.length; i++) {
            Method accessor = components[i].getAccessor();
            accessor.setAccessible(true);
            Function<R, Object> read = r -> call(accessor, r);
            switch (parts[i]) {
                case Setting<?> s -> table.addRead(s, read);
                case SettingsTable<?> t -> table.includeRead(t, read);
            }
        }
        return table;
    }

    private <T> void addRead(Setting<T> setting, Function<R, Object> read) {
        add(setting, r -> setting.cast(read.apply(r)));
    }

    @SuppressWarnings("unchecked")
    private <S> void includeRead(SettingsTable<S> part, Function<R, Object> read) {
        include(part, r -> (S) read.apply(r));
    }

    /** A constructor's or accessor's result; what it throws is thrown as it is (a record's rule). */
    @SuppressWarnings("unchecked")
    private static <T> T call(java.lang.reflect.Executable e, Object... args) {
        try {
            return e instanceof Constructor<?> c ? (T) c.newInstance(args) : (T) ((Method) e).invoke(args[0]);
        } catch (InvocationTargetException t) {
            if (t.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(t.getCause());
        } catch (ReflectiveOperationException t) {
            throw new IllegalStateException(t);
        }
    }

    /** The record this table binds. */
    Class<R> type() {
        return type;
    }

    /** The table {@code type} declares, or null. */
    public static SettingsTable<?> declaredBy(Class<?> type) {
        return DECLARED.get(type);
    }

    /** {@code setting}, read back from a record by {@code read}. */
    public <T> SettingsTable<R> add(Setting<T> setting, Function<R, T> read) {
        if (entries.putIfAbsent(setting.key(), new Entry<>(setting, read)) != null) {
            throw new IllegalArgumentException("key " + setting.key() + " twice in " + type.getSimpleName());
        }
        return this;
    }

    /** {@code setting} of a table only read from files: its records cannot be {@linkplain #change changed}. */
    public <T> SettingsTable<R> add(Setting<T> setting) {
        return add(setting, r -> {
            throw new UnsupportedOperationException(type.getSimpleName() + " is only read from a file");
        });
    }

    /**
     * The keys of {@code part}, a record this one holds, in the same mapping (the {@code probe:}
     * section holds the probe and proximity settings); {@link Values#get(SettingsTable)} builds it.
     */
    public <S> SettingsTable<R> include(SettingsTable<S> part, Function<R, S> read) {
        for (Entry<S, ?> e : part.entries.values()) {
            addPart(e, read);
        }
        return this;
    }

    private <S, T> void addPart(Entry<S, T> e, Function<R, S> read) {
        add(e.setting(), read.andThen(e.read()));
    }

    /**
     * What {@code record} holds for {@code setting} (the default where the file left it out), or
     * null when this table only reads files and cannot tell.
     */
    public Object valueOf(R record, Setting<?> setting) {
        Entry<R, ?> e = entries.get(setting.key());
        try {
            return e == null ? null : e.read().apply(record);
        } catch (UnsupportedOperationException notKept) {
            return null;
        }
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
        return change(record).set(setting, value).build();
    }

    /** A copy of {@code record} to change key by key; {@link Changes#build} makes it. */
    public Changes change(R record) {
        Map<Setting<?>, Object> given = new HashMap<>();
        for (Entry<R, ?> e : entries.values()) {
            given.put(e.setting(), e.read().apply(record));
        }
        return new Changes(given);
    }

    /** Some keys of a record changed, each checked against its bounds. */
    public final class Changes {
        private final Map<Setting<?>, Object> given;

        private Changes(Map<Setting<?>, Object> given) {
            this.given = given;
        }

        public <T> Changes set(Setting<T> setting, T value) {
            if (!entries.containsKey(setting.key())) {
                throw new IllegalArgumentException(setting.key() + " is not a key of " + type.getSimpleName());
            }
            given.put(setting, setting.checked(value));
            return this;
        }

        public R build() {
            return build.apply(new Values(Path.of(""), given));
        }
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
            return setting.in(folder, given.containsKey(setting) ? (T) given.get(setting) : setting.defaultValue());
        }

        /** The record of an {@linkplain #include included} table, from the same values. */
        public <S> S get(SettingsTable<S> part) {
            return part.build.apply(this);
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
        return new Binder<>(type, (folder, given) -> build.apply(new Values(folder, given)));
    }

    /** Binds a mapping of some of these keys as a {@link SettingsOverlay}, relative paths resolved now. */
    StdDeserializer<SettingsOverlay<R>> overlayBinder() {
        @SuppressWarnings("unchecked")
        Class<SettingsOverlay<R>> overlay = (Class<SettingsOverlay<R>>) (Class<?>) SettingsOverlay.class;
        return new Binder<>(overlay, (folder, given) -> {
            Map<Setting<?>, Object> resolved = new HashMap<>();
            given.forEach((setting, value) -> resolved.put(setting, setting.resolved(folder, value)));
            return new SettingsOverlay<>(this, resolved);
        });
    }

    /** {@code record} with the values of {@code given} (checked at binding) over its own. */
    R over(R record, Map<Setting<?>, Object> given) {
        Changes changes = change(record);
        changes.given.putAll(given);
        return changes.build();
    }

    /**
     * Binds the mapping {@code p} stands at with this table (a deserializer that chooses the table
     * by a key of the mapping, as {@code monitors:} does by {@code type:}).
     */
    public R read(JsonParser p, DeserializationContext ctxt) throws IOException {
        return binder().deserialize(p, ctxt);
    }

    /** Reads a mapping of this table's keys, each checked at its key, and makes a {@code T} of what was given. */
    private final class Binder<T> extends StdDeserializer<T> {
        private final transient BiFunction<Path, Map<Setting<?>, Object>, T> make;

        Binder(Class<T> made, BiFunction<Path, Map<Setting<?>, Object>, T> make) {
            super(made);
            this.make = make;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken()) {
                return (T) ctxt.handleUnexpectedToken(handledType(), p);
            }
            Map<Setting<?>, Object> given = new HashMap<>();
            for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
                Entry<R, ?> entry = entries.get(key);
                Entry<R, ?> fileOf = secretFileOf(key);
                if (entry == null && fileOf == null) {
                    throw SettingsReader.unknownKey(p, type, key, known());
                }
                if (p.nextToken() == JsonToken.VALUE_NULL) {
                    continue; // a key with nothing after it keeps its default
                }
                Setting<?> setting = entry != null ? entry.setting() : fileOf.setting();
                try {
                    if (given.containsKey(setting)) {
                        throw JsonMappingException.from(
                                p,
                                "give '" + setting.key() + "' or '" + setting.key() + Secrets.FILE_SUFFIX
                                        + "', not both");
                    }
                    Object written = setting.secret()
                            ? secret(p, ctxt, setting, entry == null)
                            : ctxt.readValue(p, setting.written());
                    given.put(setting, accept(p, setting, written));
                } catch (JsonMappingException e) {
                    e.prependPath(type, key);
                    throw e;
                }
            }
            try {
                return make.apply(SettingsModule.folder(ctxt), given);
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage(), e);
            }
        }

        /** The secret key {@code key} names the file of ({@code password-file} for {@code password}), or null. */
        private Entry<R, ?> secretFileOf(String key) {
            if (!key.endsWith(Secrets.FILE_SUFFIX)) {
                return null;
            }
            Entry<R, ?> e = entries.get(key.substring(0, key.length() - Secrets.FILE_SUFFIX.length()));
            return e != null && e.setting().secret() ? e : null;
        }

        /** The keys a mapping may hold: each setting's, and the file key of each secret. */
        private List<String> known() {
            List<String> keys = new java.util.ArrayList<>(entries.keySet());
            entries.values().stream()
                    .filter(e -> e.setting().secret())
                    .forEach(e -> keys.add(e.setting().key() + Secrets.FILE_SUFFIX));
            return keys;
        }

        /**
         * A secret's value: what is written, the variable it names, or the one line of the file the
         * {@code -file} key names (relative to the file's folder); then read as the key's type.
         */
        private static Object secret(JsonParser p, DeserializationContext ctxt, Setting<?> setting, boolean fromFile)
                throws IOException {
            if (!p.currentToken().isScalarValue()) {
                return ctxt.handleUnexpectedToken(String.class, p);
            }
            String text = p.getText();
            Secrets secrets = SettingsModule.secrets(ctxt);
            String value;
            try {
                value = fromFile
                        ? secrets.file(
                                setting.key() + Secrets.FILE_SUFFIX,
                                SettingsModule.folder(ctxt).resolve(text.strip()))
                        : secrets.inline(text);
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage(), e);
            }
            if (setting.written().getRawClass() == String.class) {
                return value;
            }
            try {
                return ctxt.readTreeAsValue(TextNode.valueOf(value), setting.written());
            } catch (JsonMappingException e) { // its message would quote the secret
                throw JsonMappingException.from(
                        p,
                        setting.key() + " is not a valid "
                                + setting.written().getRawClass().getSimpleName() + " (not shown: it is a secret)");
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
