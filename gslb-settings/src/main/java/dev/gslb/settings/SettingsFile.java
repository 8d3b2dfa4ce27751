package dev.gslb.settings;

import com.fasterxml.jackson.core.JsonLocation;
import java.util.Map;

/**
 * A settings file read and bound: its value, and where each key and list element stands in the
 * file, so that a check made after binding (a name that refers to another section) can point at
 * the line and column to fix.
 *
 * @param <T> the record the file was bound to
 */
public final class SettingsFile<T> {
    private final String label;
    private final T value;
    private final Map<String, JsonLocation> locations;

    SettingsFile(String label, T value, Map<String, JsonLocation> locations) {
        this.label = label;
        this.value = value;
        this.locations = locations;
    }

    public T value() {
        return value;
    }

    public String label() {
        return label;
    }

    /**
     * {@code label:line:column} of the node at {@code path} (key names and list indexes, e.g.
     * {@code "pools", 0, "members", 1}), or of its nearest enclosing node.
     */
    public String where(Object... path) {
        String pointer = pointer(path);
        JsonLocation at = locations.get(pointer);
        while (at == null && !pointer.isEmpty()) {
            pointer = pointer.substring(0, pointer.lastIndexOf('/'));
            at = locations.get(pointer);
        }
        return at == null ? label : label + ":" + at.getLineNr() + ":" + at.getColumnNr();
    }

    /** Whether the file gives a value at {@code path} (a default that depends on another section). */
    public boolean has(Object... path) {
        return locations.containsKey(pointer(path));
    }

    /** An error at {@code path}: {@code label:line:column: message}. */
    public SettingsException error(String message, Object... path) {
        return new SettingsException(where(path) + ": " + message);
    }

    /** A JSON pointer; the index below is built with the same escaping (RFC 6901). */
    static String pointer(Object... path) {
        StringBuilder b = new StringBuilder();
        for (Object part : path) {
            b.append('/').append(part.toString().replace("~", "~0").replace("/", "~1"));
        }
        return b.toString();
    }

    /** How {@code path} reads to an operator: {@code pools[0].members}, or "the configuration" for the root. */
    static String dotted(Object... path) {
        StringBuilder b = new StringBuilder();
        for (Object part : path) {
            if (part instanceof Integer i) {
                b.append('[').append(i).append(']');
            } else {
                b.append(b.isEmpty() ? "" : ".").append(part);
            }
        }
        return b.isEmpty() ? "the configuration" : b.toString();
    }
}
