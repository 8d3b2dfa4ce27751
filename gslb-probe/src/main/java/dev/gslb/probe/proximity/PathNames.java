package dev.gslb.probe.proximity;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The data-center and instance names of paths, each given a small number once, and each pair of a
 * data center and the instance that measured there, so that a path packs into twelve bytes
 * instead of an object with two references (see {@link LdnsEntry}). Like {@link String#intern()}
 * this is process-wide by nature: a number stands for the same name in every entry and table. The
 * names come from the configuration and from paired peers (a peer's paths carry its own data
 * center and name), so there are few; the bound stops a bug or a hostile input from growing it
 * without end.
 */
final class PathNames {
    /** Names and pairs both fit in 10-bit fields. */
    static final int MAX = 1024;

    /** The one every entry uses. */
    static final PathNames SHARED = new PathNames(MAX);

    private final int max;
    private final Map<String, Integer> numbers = new HashMap<>();
    private volatile String[] names = new String[0];
    /** Per pair number: data center << 10 | instance (read without the lock: published by the volatile write). */
    private volatile int[] pairs = new int[0];

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
        String[] grown = Arrays.copyOf(names, next + 1);
        grown[next] = name.intern();
        names = grown;
        numbers.put(grown[next], next);
        return next;
    }

    String name(int number) {
        return names[number];
    }

    /**
     * Every pair so far, by name, read without the lock: two peers' snapshots arrive at once, each
     * millions of paths of its own pair, and a one-pair cache missed on every path (21 % of a fresh
     * peer's CPU was a locked map of pairs). Replaced whole when a pair is added.
     */
    private volatile PairIndex index = PairIndex.EMPTY;

    /** The number of the pair of {@code dataCenter} and {@code measuredBy}, given one when it is new. */
    int pair(String dataCenter, String measuredBy) {
        int n = index.find(dataCenter, measuredBy);
        return n >= 0 ? n : newPair(dataCenter, measuredBy);
    }

    private synchronized int newPair(String dataCenter, String measuredBy) {
        int n = index.find(dataCenter, measuredBy); // added since the caller looked
        if (n >= 0) {
            return n;
        }
        if (pairs.length >= max) {
            throw new IllegalArgumentException(
                    "more than " + max + " distinct data-center and instance pairs in paths: " + dataCenter + "/"
                            + measuredBy + " refused");
        }
        int key = number(dataCenter) << 10 | number(measuredBy);
        int next = pairs.length;
        int[] grown = Arrays.copyOf(pairs, next + 1);
        grown[next] = key;
        pairs = grown;
        index = index.with(names[key >>> 10], names[key & 0x3FF], next);
        return next;
    }

    /** An open-addressed table of name pairs (at most {@link #MAX}, so rebuilt whole on each addition). */
    private record PairIndex(String[] dataCenters, String[] instances, int[] numbers) {
        static final PairIndex EMPTY = new PairIndex(new String[8], new String[8], new int[8]);

        int find(String dataCenter, String measuredBy) {
            int mask = numbers.length - 1;
            for (int i = hash(dataCenter, measuredBy) & mask; dataCenters[i] != null; i = (i + 1) & mask) {
                if (dataCenters[i].equals(dataCenter) && instances[i].equals(measuredBy)) {
                    return numbers[i];
                }
            }
            return -1;
        }

        PairIndex with(String dataCenter, String measuredBy, int number) {
            int count = number + 1;
            int size = Math.max(numbers.length, Integer.highestOneBit(count * 4 - 1));
            PairIndex t = new PairIndex(new String[size], new String[size], new int[size]);
            for (int i = 0; i < numbers.length; i++) {
                if (dataCenters[i] != null) {
                    t.put(dataCenters[i], instances[i], numbers[i]);
                }
            }
            t.put(dataCenter, measuredBy, number);
            return t;
        }

        private void put(String dataCenter, String measuredBy, int number) {
            int mask = numbers.length - 1;
            int i = hash(dataCenter, measuredBy) & mask;
            while (dataCenters[i] != null) {
                i = (i + 1) & mask;
            }
            dataCenters[i] = dataCenter;
            instances[i] = measuredBy;
            numbers[i] = number;
        }

        private static int hash(String dataCenter, String measuredBy) {
            int h = dataCenter.hashCode() * 31 + measuredBy.hashCode();
            return h ^ h >>> 16;
        }
    }

    /** The data center's name number in {@code pair}. */
    int dataCenterOf(int pair) {
        return pairs[pair] >>> 10;
    }

    /** The measuring instance's name number in {@code pair}. */
    int instanceOf(int pair) {
        return pairs[pair] & 0x3FF;
    }
}
