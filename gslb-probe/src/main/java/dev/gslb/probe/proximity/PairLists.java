package dev.gslb.probe.proximity;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One copy of each list of {@link PathNames} pairs that entries with many paths hold: with twenty
 * data centers almost every LDNS has the same twenty paths in the same order, so the list is kept
 * once rather than with each of millions of entries. Bounded: past {@link #MAX} distinct lists a
 * new one is used as it is, unshared (it costs memory, never correctness).
 */
final class PairLists {
    static final int MAX = 4096;

    static final PairLists SHARED = new PairLists(MAX);

    private final int max;
    private final Map<Key, int[]> lists = new HashMap<>();

    PairLists(int max) {
        this.max = max;
    }

    /** The shared list equal to {@code pairs}, or {@code pairs} itself (then shared when there is room). */
    synchronized int[] intern(int[] pairs) {
        Key k = new Key(pairs);
        int[] known = lists.get(k);
        if (known != null) {
            return known;
        }
        if (lists.size() < max) {
            lists.put(k, pairs);
        }
        return pairs;
    }

    /** An int[] with value equality, for the map. */
    private record Key(int[] pairs) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.pairs, pairs);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(pairs);
        }
    }
}
