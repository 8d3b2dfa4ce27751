package dev.gslb.dns.answer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Prepared answers to static questions, keyed by the question alone (lower-cased name, type,
 * class): the client's size limit, EDNS options, client subnet and transport are applied when
 * the answer is written, so they do not multiply the entries. Bounded in bytes: a fixed table of
 * slots, 4-way set associative; a new entry takes an empty slot of its set or replaces one, and
 * when the bytes held pass the budget a clock hand frees slots one at a time. So nothing is ever
 * flushed whole, and a flood of distinct questions only recycles slots. Lookups read the packet
 * in place and allocate nothing. Belongs to one {@link Authority}; a reload starts an empty one.
 */
final class ResponseCache {
    /** Slots per byte of budget: sized for answers of about 256 bytes, the common case. */
    private static final int BYTES_PER_SLOT = 256;

    /** {@code kind}: the question's class with DO and CO ({@link #kind}). */
    private record Entry(byte[] name, int qtype, int kind, long hash, AnswerBody body, int bytes) {}

    private final AtomicReferenceArray<Entry> slots;
    /**
     * Null, or the keys last put, one per slot: an unsigned answer is kept only when it is put a
     * second time while its key is still here (a doorkeeper, as in TinyLFU). Random names, asked once
     * each, then cost no entry: none to make, none to survive young collections, none to push
     * out a name asked again. Plain writes: two threads racing lose a key, which only delays one.
     */
    private final long[] doorkeeper;

    private final int mask;
    private final long budget;
    private final AtomicLong used = new AtomicLong();
    private int hand;
    private int victim;

    ResponseCache(long budgetBytes) {
        this(budgetBytes, false);
    }

    /** {@code secondAsk}: an unsigned answer is kept the second time it is put, not the first. */
    ResponseCache(long budgetBytes, boolean secondAsk) {
        int size = Integer.highestOneBit((int) Math.clamp(budgetBytes / BYTES_PER_SLOT, 64, 1 << 24));
        this.slots = new AtomicReferenceArray<>(size);
        this.doorkeeper = secondAsk ? new long[size] : null;
        this.mask = size - 1;
        this.budget = budgetBytes;
    }

    private static long key(QueryView q) {
        return WireName.mix(q.qnameHash ^ ((long) q.qtype << 32 | kind(q)));
    }

    /** The question's class and what else shapes its answer: DO (signed) and CO (compact NXDOMAIN). */
    private static int kind(QueryView q) {
        return q.qclass | (q.dnssecOk ? 1 << 16 : 0) | (q.compactOk ? 1 << 17 : 0);
    }

    /** The prepared answer to {@code q}'s question, or null; a signed one only until its refresh time. */
    AnswerBody get(QueryView q, long nowMillis) {
        long h = key(q);
        int set = (int) h & mask & ~3;
        int kind = kind(q);
        for (int i = set; i < set + 4; i++) {
            Entry e = slots.get(i);
            if (e != null
                    && e.hash == h
                    && e.qtype == q.qtype
                    && e.kind == kind
                    && WireName.matches(e.name, q.buf, QueryView.HEADER, q.qnameEnd)) {
                return e.body.refreshAt > nowMillis ? e.body : null;
            }
        }
        return null;
    }

    void put(QueryView q, AnswerBody body) {
        long h = key(q);
        if (doorkeeper != null && body.refreshAt == Long.MAX_VALUE) { // a signed answer is kept at once: its
            // signature counted against the signing budget, and a flood with DO must not make it again
            int at = (int) (h >>> 32) & mask;
            if (doorkeeper[at] != h) {
                doorkeeper[at] = h; // its first time (or its key was overwritten since)
                return;
            }
        }
        byte[] name = WireName.lowerCopy(q.buf, QueryView.HEADER, q.qnameEnd);
        int bytes = body.size() + name.length + 64;
        if (bytes > budget / 16) {
            return; // one huge answer may not push out many small ones; it is built again when asked
        }
        Entry entry = new Entry(name, q.qtype, kind(q), h, body, bytes);
        int set = (int) h & mask & ~3;
        int slot = -1;
        for (int i = set; i < set + 4 && slot < 0; i++) {
            if (slots.get(i) == null) {
                slot = i;
            }
        }
        if (slot < 0) {
            slot = set + (victim++ & 3); // racy on purpose: any slot of the set will do
        }
        Entry old = slots.getAndSet(slot, entry);
        long total = used.addAndGet(bytes - (old == null ? 0 : old.bytes));
        for (int freed = 0; total > budget && freed <= mask; freed++) {
            Entry gone = slots.getAndSet(hand++ & mask, null);
            if (gone != null) {
                total = used.addAndGet(-gone.bytes);
            }
        }
    }

    /** Bytes held now (entries' answers, names and bookkeeping). */
    long bytes() {
        return used.get();
    }
}
