package dev.gslb.probe.proximity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The proximity table's storage: LDNS address -> {@link LdnsEntry}, open addressing over arrays
 * of entries that hold their own address. A ConcurrentHashMap would spend a 32-byte node and a
 * 32-byte key object on each of millions of entries, more than the entry itself; here an entry
 * costs its array slot. Readers take no lock: they probe an array whose slots are written with
 * release semantics and hold immutable entries. Writers lock one of {@link #SEGMENTS} segments,
 * so a bulk load from a peer does not hold up the query path's occasional write elsewhere. A
 * removed entry leaves a tombstone (so probes for later keys still pass it) until the segment is
 * rebuilt, which happens when live entries and tombstones fill three quarters of it.
 */
final class LdnsEntries {
    private static final int SEGMENTS = 64;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(LdnsEntry[].class);
    /** What a removed entry leaves: its address matches no lookup, since lookups compare by identity first. */
    private static final LdnsEntry TOMBSTONE = LdnsEntry.probing(0);

    private final Segment[] segments = new Segment[SEGMENTS];
    /**
     * Live entries of all segments: the size is asked at every path a snapshot records (the
     * table's bound), and adding up 64 segments' counts there was a tenth of a fresh peer's
     * snapshot. An adder, so two peers' snapshots written at once do not share one counter's line.
     */
    private final LongAdder live = new LongAdder();

    LdnsEntries() {
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment(live);
        }
    }

    private static long hash(long hi, long lo) {
        long h = (hi * 0x9E37_79B9_7F4A_7C15L) ^ lo;
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        return h ^ (h >>> 33);
    }

    private Segment segment(long h) {
        return segments[(int) (h >>> 58)]; // the top 6 bits pick the segment, the low bits the slot
    }

    LdnsEntry get(long hi, long lo) {
        long h = hash(hi, lo);
        return segment(h).get(hi, lo, (int) h);
    }

    /**
     * Replaces the entry of {@code hi:lo} with {@code f(old)} (old is null when there is none; a
     * null result removes it), under the segment's lock; returns the new entry.
     */
    LdnsEntry compute(long hi, long lo, UnaryOperator<LdnsEntry> f) {
        long h = hash(hi, lo);
        return segment(h).compute(hi, lo, (int) h, f);
    }

    /** Removes the entry of {@code hi:lo} when it is {@code expected} (or any, when null); true when removed. */
    boolean remove(long hi, long lo, LdnsEntry expected) {
        boolean[] removed = {false};
        compute(hi, lo, old -> {
            if (old != null && (expected == null || old == expected)) {
                removed[0] = true;
                return null;
            }
            return old;
        });
        return removed[0];
    }

    /** How many entries are in each state (by ordinal), kept as entries change: no pass over the table. */
    long[] countByState() {
        long[] out = new long[LdnsEntry.State.values().length];
        for (Segment seg : segments) {
            for (int i = 0; i < out.length; i++) {
                out[i] += seg.states[i]; // read without the lock: a count, at most a change behind
            }
        }
        return out;
    }

    int size() {
        return live.intValue();
    }

    /** Each entry present when its segment is reached: weakly consistent, each entry whole. */
    void forEach(Consumer<LdnsEntry> action) {
        iterator().forEachRemaining(action);
    }

    /** Each entry present when its segment is reached, one at a time. */
    Iterator<LdnsEntry> iterator() {
        return new Iterator<>() {
            private int segment;
            private int slot;
            private LdnsEntry[] slots = segments[0].slots;
            private LdnsEntry next = advance();

            private LdnsEntry advance() {
                for (; ; ) {
                    while (slot < slots.length) {
                        LdnsEntry e = (LdnsEntry) SLOT.getAcquire(slots, slot++);
                        if (e != null && e != TOMBSTONE) {
                            return e;
                        }
                    }
                    if (++segment == SEGMENTS) {
                        return null;
                    }
                    slots = segments[segment].slots;
                    slot = 0;
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public LdnsEntry next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                LdnsEntry e = next;
                next = advance();
                return e;
            }
        };
    }

    private static final class Segment {
        volatile LdnsEntry[] slots = new LdnsEntry[16];
        /** Live entries of this segment (under the lock). */
        private int live;
        /** The table's count of live entries, kept with this segment's. */
        private final LongAdder tableLive;
        /** Live entries per state (by ordinal), written under the lock. */
        final int[] states = new int[LdnsEntry.State.values().length];
        /** Slots not null: live entries and tombstones (writers only, under the lock). */
        private int used;

        Segment(LongAdder tableLive) {
            this.tableLive = tableLive;
        }

        LdnsEntry get(long hi, long lo, int h) {
            LdnsEntry[] s = slots;
            int mask = s.length - 1;
            for (int i = h & mask; ; i = (i + 1) & mask) {
                LdnsEntry e = (LdnsEntry) SLOT.getAcquire(s, i);
                if (e == null) {
                    return null; // a segment is never full, so every probe ends at an empty slot
                }
                if (e != TOMBSTONE && e.isAt(hi, lo)) {
                    return e;
                }
            }
        }

        synchronized LdnsEntry compute(long hi, long lo, int h, UnaryOperator<LdnsEntry> f) {
            LdnsEntry[] s = slots;
            int mask = s.length - 1;
            int found = -1;
            int free = -1;
            for (int i = h & mask; ; i = (i + 1) & mask) {
                LdnsEntry e = s[i];
                if (e == null) {
                    if (free < 0) {
                        free = i;
                    }
                    break;
                }
                if (e == TOMBSTONE) {
                    if (free < 0) {
                        free = i;
                    }
                } else if (e.isAt(hi, lo)) {
                    found = i;
                    break;
                }
            }
            LdnsEntry old = found < 0 ? null : s[found];
            LdnsEntry next = f.apply(old);
            if (next == old) {
                return old;
            }
            if (old != null) {
                states[old.state().ordinal()]--;
            }
            if (next != null) {
                states[next.state().ordinal()]++;
            }
            if (next == null) {
                SLOT.setRelease(s, found, TOMBSTONE);
                live--;
                tableLive.decrement();
                return null;
            }
            next = next.at(hi, lo);
            if (found >= 0) {
                SLOT.setRelease(s, found, next);
                return next;
            }
            if (s[free] == null) {
                used++;
            }
            SLOT.setRelease(s, free, next);
            live++;
            tableLive.increment();
            if (used > s.length / 4 * 3) {
                rebuild();
            }
            return next;
        }

        /** A new array without tombstones, twice the size when the live entries need it; then published. */
        private void rebuild() {
            LdnsEntry[] old = slots;
            int size = old.length;
            while (live > size / 2) {
                size *= 2;
            }
            LdnsEntry[] fresh = new LdnsEntry[size];
            int mask = size - 1;
            for (LdnsEntry e : old) {
                if (e != null && e != TOMBSTONE) {
                    int i = (int) hash(e.hi(), e.lo()) & mask;
                    while (fresh[i] != null) {
                        i = (i + 1) & mask;
                    }
                    fresh[i] = e;
                }
            }
            used = live;
            slots = fresh; // the volatile write publishes the filled array
        }
    }
}
