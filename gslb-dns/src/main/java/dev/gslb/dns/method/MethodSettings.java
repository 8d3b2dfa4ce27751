package dev.gslb.dns.method;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of the methods that have any, one record per method (declared by the method, with
 * its defaults beside it, e.g. {@link LowestRoundTripTime.Settings}). A method reads its own with
 * {@link #orDefault}; a method nobody configured gets its defaults.
 */
public final class MethodSettings {
    public static final MethodSettings DEFAULTS = new MethodSettings(List.of());

    private final Map<Class<?>, Record> byType = new HashMap<>();

    private MethodSettings(List<? extends Record> settings) {
        for (Record r : settings) {
            if (byType.put(r.getClass(), r) != null) {
                throw new IllegalArgumentException(
                        "two settings of " + r.getClass().getSimpleName());
            }
        }
    }

    public static MethodSettings of(Record... settings) {
        return of(List.of(settings));
    }

    public static MethodSettings of(List<? extends Record> settings) {
        return new MethodSettings(List.copyOf(settings));
    }

    /** These settings, with each of {@code over}'s records replacing the one of its type. */
    public MethodSettings overriddenBy(MethodSettings over) {
        if (over.byType.isEmpty()) {
            return this;
        }
        Map<Class<?>, Record> merged = new HashMap<>(byType);
        merged.putAll(over.byType);
        return new MethodSettings(List.copyOf(merged.values()));
    }

    /** The configured settings of {@code defaults}' type, or {@code defaults}. */
    @SuppressWarnings("unchecked")
    public <T extends Record> T orDefault(T defaults) {
        return (T) byType.getOrDefault(defaults.getClass(), defaults);
    }
}
