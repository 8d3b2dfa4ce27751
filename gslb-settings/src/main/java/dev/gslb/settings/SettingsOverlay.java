package dev.gslb.settings;

import java.util.Map;

/**
 * Some keys of a {@link SettingsTable} as a file gives them, each checked at its key when read, to
 * lay over a record bound elsewhere: a pool's {@code qos:} over the coefficients under
 * {@code load-balancing:}. A component typed {@code SettingsOverlay<R>} binds with the table
 * {@code R} declares; keys it does not give keep the base's values.
 *
 * @param <R> the settings record laid over
 */
public final class SettingsOverlay<R> {
    private final SettingsTable<R> table;
    private final Map<Setting<?>, Object> given;

    SettingsOverlay(SettingsTable<R> table, Map<Setting<?>, Object> given) {
        this.table = table;
        this.given = Map.copyOf(given);
    }

    /** {@code base} with the given keys over its own; the record's rules across keys may refuse it. */
    public R over(R base) {
        return table.over(base, given);
    }
}
