package dev.gslb.probe.proximity;

import java.util.HashMap;
import java.util.Map;

/**
 * The data-center and instance names of paths, each given a small number once, so that a path
 * packs into two longs instead of an object with two references (see {@link LdnsEntry}). Like
 * {@link String#intern()} this is process-wide by nature: a number stands for the same name in
 * every entry and table. The names come from the configuration and from paired peers (a peer's
 * paths carry its own data center and name), so there are few; the bound stops a bug or a hostile
 * input from growing it without end.
 */
final class PathNames {
    /** Numbers fit in {@link LdnsEntry}'s 10-bit fields. */
    static final int MAX = 1024;

    /** The one every entry uses. */
    static final PathNames SHARED = new PathNames(MAX);

    private final int max;
    private final Map<String, Integer> numbers = new HashMap<>();
    private volatile String[] names = new String[0];

    PathNames(int max) {
        this.max = max;
    }

    /** The number of {@code name}, given one when it is new. */
    synchronized int number(String name) {
        Integer n = numbers.get(name);
        if (n != null) {
            return n;
        }
        if (numbers.size() >= max) {
            throw new IllegalArgumentException(
                    "more than " + max + " distinct data-center and instance names in paths: " + name + " refused");
        }
        int next = numbers.size();
        String[] grown = java.util.Arrays.copyOf(names, next + 1);
        grown[next] = name.intern();
        names = grown;
        numbers.put(grown[next], next);
        return next;
    }

    String name(int number) {
        return names[number];
    }
}
