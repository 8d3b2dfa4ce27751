package dev.gslb.api;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a token may do on the admin API, each role everything the one before it may: a viewer
 * reads, an operator also acts on what runs (probes, topology loads, and disable or drain), an
 * admin also changes the configuration, pairs and manages the tokens.
 */
public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN;

    /** True when this role may call a route that needs {@code needed}. */
    public boolean allows(Role needed) {
        return compareTo(needed) >= 0;
    }

    /** The role named {@code text} (viewer, operator, admin). */
    public static Role parse(String text) {
        for (Role r : values()) {
            if (r.label().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return r;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a role: "
                + String.join(", ", Arrays.stream(values()).map(Role::label).toList()));
    }

    /** The name as the API and the files write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
