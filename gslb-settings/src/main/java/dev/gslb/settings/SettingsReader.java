package dev.gslb.settings;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads a YAML settings file into a record with Jackson: keys are kebab-case, a key the record does
 * not know is refused, and every error names {@code file:line:column} and what is wrong. A settings
 * record binds through its {@link SettingsTable} (absent keys take their defaults, relative paths
 * the file's folder); other records through their canonical constructors or {@code @JsonCreator}s,
 * which may take {@code @JacksonInject Path}: the folder of the file. A file of top-level sections,
 * each declared by its owner, reads as {@link SectionValues} ({@link SettingsModule#sections}).
 */
public final class SettingsReader {
    private final ObjectMapper mapper;

    /** A reader of the {@link SettingsModule} types. */
    public SettingsReader() {
        this(new SettingsModule());
    }

    /** A reader of {@code types}: the {@link SettingsModule} ones and those a caller added with {@code scalar}. */
    public SettingsReader(SettingsModule types) {
        this.mapper = YAMLMapper.builder()
                .addModule(types.pathsRelativeToTheFile())
                .propertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
                .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL)) // "- " alone in a list
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_FINAL_FIELDS_AS_MUTATORS)
                .disable(MapperFeature.INFER_PROPERTY_MUTATORS)
                .build();
    }

    /**
     * Binds {@code text} (named {@code label} in errors) to {@code type}; paths in it are relative
     * to {@code folder}.
     */
    public <T> SettingsFile<T> read(String label, String text, Path folder, Class<T> type) throws SettingsException {
        return read(label, text, folder, type, Secrets.ofProcess());
    }

    /** {@link #read(String, String, Path, Class)} with secret references read through {@code secrets}. */
    public <T> SettingsFile<T> read(String label, String text, Path folder, Class<T> type, Secrets secrets)
            throws SettingsException {
        Map<String, JsonLocation> locations = index(label, text);
        try {
            T value = mapper.readerFor(type)
                    .with(new InjectableValues.Std()
                            .addValue(Path.class, folder)
                            .addValue(Secrets.class, secrets))
                    .readValue(text);
            if (value == null) { // a document of just "~" or "null"
                throw new SettingsException(label + ": the file is empty");
            }
            return new SettingsFile<>(label, value, locations);
        } catch (JsonMappingException e) {
            Object[] path = distinct(e.getPath()).stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : (Object) r.getIndex())
                    .toArray();
            throw new SettingsFile<>(label, null, locations).error(message(e, path), path);
        } catch (JsonProcessingException e) {
            throw syntax(label, e);
        } catch (IOException e) {
            throw new SettingsException(label + ": cannot read: " + e.getMessage());
        }
    }

    /** The path without a reference repeated next to itself (an unknown key's, which Jackson adds twice). */
    private static List<JsonMappingException.Reference> distinct(List<JsonMappingException.Reference> path) {
        List<JsonMappingException.Reference> kept = new ArrayList<>();
        for (JsonMappingException.Reference r : path) {
            JsonMappingException.Reference last = kept.isEmpty() ? null : kept.getLast();
            if (last == null
                    || last.getFrom() != r.getFrom()
                    || !java.util.Objects.equals(last.getFieldName(), r.getFieldName())
                    || last.getIndex() != r.getIndex()) {
                kept.add(r);
            }
        }
        return kept;
    }

    /**
     * Where each key and list element starts (JSON pointer to location); also refuses YAML syntax
     * errors, a key given twice in one mapping, and an empty file.
     */
    private Map<String, JsonLocation> index(String label, String text) throws SettingsException {
        Map<String, JsonLocation> at = new HashMap<>();
        try (JsonParser p = mapper.createParser(text)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                JsonStreamContext ctx = p.getParsingContext();
                String pointer;
                if (t == JsonToken.FIELD_NAME) {
                    pointer = ctx.pathAsPointer().toString();
                    if (at.containsKey(pointer)) {
                        throw new SettingsException(place(label, p.currentTokenLocation()) + ": key '"
                                + p.currentName() + "' appears twice in "
                                + SettingsFile.dotted(parts(ctx.getParent())));
                    }
                } else if (t.isStructStart()) {
                    JsonStreamContext parent = ctx.getParent();
                    if (parent.inObject()) {
                        continue; // the key's own location stands for its value
                    }
                    pointer = parent.pathAsPointer().toString();
                } else if (ctx.inArray()) {
                    pointer = ctx.pathAsPointer().toString();
                } else if (ctx.inRoot()) {
                    pointer = "";
                } else {
                    continue;
                }
                at.putIfAbsent(pointer, p.currentTokenLocation());
            }
        } catch (JsonProcessingException e) {
            throw syntax(label, e);
        } catch (IOException e) {
            throw new SettingsException(label + ": cannot read: " + e.getMessage());
        }
        if (at.isEmpty()) {
            throw new SettingsException(label + ": the file is empty");
        }
        return at;
    }

    private static Object[] parts(JsonStreamContext ctx) {
        List<Object> parts = new ArrayList<>();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            parts.addFirst(c.inArray() ? (Object) c.getCurrentIndex() : c.getCurrentName());
        }
        return parts.toArray();
    }

    private static SettingsException syntax(String label, JsonProcessingException e) {
        return new SettingsException(place(label, e.getLocation()) + ": YAML syntax: " + e.getOriginalMessage());
    }

    private static String place(String label, JsonLocation l) {
        return l == null ? label : label + ":" + l.getLineNr() + ":" + l.getColumnNr();
    }

    /** An unknown {@code key} of a mapping bound to {@code type}: the error names it and the keys {@code known}. */
    static UnrecognizedPropertyException unknownKey(JsonParser p, Class<?> type, String key, Collection<String> known) {
        var unknown = UnrecognizedPropertyException.from(p, type, key, new ArrayList<Object>(known));
        unknown.prependPath(type, key);
        return unknown;
    }

    /** What is wrong, in the file's words (keys, not Java types). */
    private static String message(JsonMappingException e, Object[] path) {
        String where = SettingsFile.dotted(path);
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown key '" + u.getPropertyName() + "' in "
                    + SettingsFile.dotted(Arrays.copyOf(path, path.length - 1)) + "; expected one of "
                    + new TreeSet<>(u.getKnownPropertyIds().stream()
                            .map(String::valueOf)
                            .toList());
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof IllegalArgumentException iae && iae.getMessage() != null) {
                return iae.getMessage(); // a record's own rule, or a value type's parse
            }
        }
        if (e instanceof InvalidNullException) {
            return where + " has an empty value";
        }
        if (e instanceof InvalidFormatException f) {
            return where + " must be " + kind(f.getTargetType()) + ", not '" + f.getValue() + "'";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return where + " must be " + kind(m.getTargetType());
        }
        return where + ": " + e.getOriginalMessage();
    }

    private static String kind(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (type == String.class || type.isEnum()) {
            return "a single value";
        }
        return "a mapping of key: value";
    }
}
