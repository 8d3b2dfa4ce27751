package dev.gslb.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A part of a settings file as it is in service (`gslb config show`): the keys the file gives as
 * written, and every key it leaves out with its default, in the table's order. A default is
 * written as the reference (docs/configuration.md) writes it; one derived from other keys is the
 * value in service.
 */
public final class FilledSection {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final PropertyNamingStrategies.KebabCaseStrategy KEBAB =
            new PropertyNamingStrategies.KebabCaseStrategy();

    /** The settings table of a bound value that has one other than its class's own (a monitor's, by its type), or null. */
    private final BiFunction<Object, JsonNode, SettingsTable<?>> tableOf;

    public FilledSection(BiFunction<Object, JsonNode, SettingsTable<?>> tableOf) {
        this.tableOf = tableOf;
    }

    /**
     * {@code given} (what the file says, or null) with the defaults of {@code bound} (what it was
     * bound to) filled in: a record by its settings table, a list element by element, a record
     * without a table by those of its parts that have one.
     */
    public JsonNode fill(JsonNode given, Object bound) {
        SettingsTable<?> table = bound == null ? null : table(bound, given);
        if (table != null && (given == null || given.isObject())) {
            return fill((ObjectNode) given, table, bound);
        }
        if (bound instanceof List<?> list && given instanceof ArrayNode array && array.size() == list.size()) {
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < list.size(); i++) {
                out.add(fill(array.get(i), list.get(i)));
            }
            return out;
        }
        if (bound instanceof Record r && given instanceof ObjectNode o) {
            ObjectNode out = o.deepCopy();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                String key = KEBAB.translate(c.getName());
                if (o.has(key)) {
                    out.set(key, fill(o.get(key), read(c, r)));
                }
            }
            return out;
        }
        return given;
    }

    private SettingsTable<?> table(Object bound, JsonNode given) {
        SettingsTable<?> own = tableOf.apply(bound, given);
        return own != null ? own : SettingsTable.declaredBy(bound.getClass());
    }

    @SuppressWarnings("unchecked")
    private <R> ObjectNode fill(ObjectNode given, SettingsTable<R> table, Object bound) {
        R record = (R) bound;
        ObjectNode out = NODES.objectNode();
        for (Setting<?> s : table.settings()) {
            JsonNode written = given == null ? null : given.get(s.key());
            Object value = table.valueOf(record, s);
            JsonNode node;
            if (written != null && !written.isNull()) {
                node = value != null && SettingsTable.declaredBy(value.getClass()) != null
                        ? fill(written, value)
                        : written.deepCopy();
            } else if (value != null && SettingsTable.declaredBy(value.getClass()) != null) {
                node = fill(null, value);
            } else if (s.defaultValue() != null) {
                node = s.shown() != null ? written(s.shownDefault()) : shown(s.defaultValue());
            } else {
                node = value == null ? null : shown(value); // derived from other keys: what is in service
            }
            if (node != null) {
                out.set(s.key(), node);
            }
        }
        if (given != null) { // nothing else binds, but what was written is never hidden
            given.properties().forEach(e -> {
                if (!out.has(e.getKey())) {
                    out.set(e.getKey(), e.getValue().deepCopy());
                }
            });
        }
        return out;
    }

    /**
     * A default as the reference writes it (a key that maps what is written to another value keeps
     * the written one: {@code available}, {@code 16MiB}); a list, {@code [a, b]}, as a list.
     */
    private static JsonNode written(String shown) {
        if (shown.startsWith("[") && shown.endsWith("]")) {
            ArrayNode a = NODES.arrayNode();
            String inside = shown.substring(1, shown.length() - 1).strip();
            if (!inside.isEmpty()) {
                for (String e : inside.split(", ")) {
                    a.add(e);
                }
            }
            return a;
        }
        return NODES.textNode(shown);
    }

    /**
     * A value as a file writes it: numbers and booleans as such, lists as lists, the rest as the
     * reference shows it.
     */
    private JsonNode shown(Object value) {
        return switch (value) {
            case Boolean b -> NODES.booleanNode(b);
            case Integer i -> NODES.numberNode(i);
            case Long l -> NODES.numberNode(l);
            case Double d -> NODES.numberNode(d);
            case Collection<?> c -> {
                ArrayNode a = NODES.arrayNode();
                c.forEach(v -> a.add(shown(v)));
                yield a;
            }
            default ->
                SettingsTable.declaredBy(value.getClass()) != null
                        ? fill(null, value)
                        : NODES.textNode(Setting.show(value));
        };
    }

    private static Object read(RecordComponent c, Record r) {
        try {
            var accessor = c.getAccessor();
            accessor.setAccessible(true);
            return accessor.invoke(r);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
