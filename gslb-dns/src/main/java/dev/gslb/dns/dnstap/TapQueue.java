package dev.gslb.dns.dnstap;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The queries waiting for the dnstap writer: a bounded ring of records made once, filled by any
 * number of query threads and emptied by the one writer (Vyukov's bounded queue: each slot's
 * sequence number says whose turn it is). A query thread never waits: when the ring is full its
 * record is refused and counted. Taking and giving back a slot allocates nothing.
 */
final class TapQueue {
    private final TapRecord[] slots;
    /** Slot i is free for the producer at position p when it holds p, full for the consumer when it holds p + 1. */
    private final AtomicLongArray sequence;

    private final AtomicLong tail = new AtomicLong();
    /** The consumer's position: only the writer thread reads and moves it. */
    private long head;

    TapQueue(int capacity, int recordBytes) {
        slots = new TapRecord[capacity];
        sequence = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            slots[i] = new TapRecord(recordBytes);
            sequence.set(i, i);
        }
    }

    int capacity() {
        return slots.length;
    }

    /** A free record to fill, then {@link #publish}; null when the ring is full. */
    TapRecord claim() {
        long pos = tail.get();
        while (true) {
            int i = (int) (pos % slots.length);
            long seq = sequence.getAcquire(i);
            if (seq == pos) {
                if (tail.compareAndSet(pos, pos + 1)) {
                    TapRecord r = slots[i];
                    r.position = pos;
                    return r;
                }
                pos = tail.get();
            } else if (seq < pos) {
                return null; // the writer has not emptied this slot yet: full
            } else {
                pos = tail.get(); // another thread took it
            }
        }
    }

    /** Hands a filled record to the writer. */
    void publish(TapRecord r) {
        sequence.setRelease((int) (r.position % slots.length), r.position + 1);
    }

    /** The oldest published record, or null when none is ready. The writer's only. */
    TapRecord peek() {
        int i = (int) (head % slots.length);
        return sequence.getAcquire(i) == head + 1 ? slots[i] : null;
    }

    /** Gives the record {@link #peek} returned back to the producers. The writer's only. */
    void release(TapRecord r) {
        r.forget();
        sequence.setRelease((int) (head % slots.length), head + slots.length);
        head++;
    }
}
