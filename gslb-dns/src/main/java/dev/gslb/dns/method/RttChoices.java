package dev.gslb.dns.method;

import dev.gslb.probe.proximity.ProximityTable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The data center each LDNS was last answered from, so that the RTT margin can keep it: a lossy,
 * fixed-size table (a direct-mapped cache) of one long per slot, read and written with opaque
 * access. The query path takes no lock and allocates nothing; the memory is bounded whatever the
 * network sends.
 *
 * <p>A choice is kept per LDNS and per set of candidate data centers, so pools over different data
 * centers do not overwrite each other's choices, and one server's pools over the same data centers
 * agree. A slot holds a fingerprint of its key and the data center's number ({@code PathNames}):
 * two keys that fall in one slot overwrite each other, and the one overwritten is simply forgotten:
 * its next answer is the best path, as with no margin, and that is remembered again. Forgetting
 * only costs the stickiness the margin gives; taking another LDNS's choice would keep a worse
 * path, so a fingerprint that does not match reads as nothing.
 *
 * <p>The key is mixed by a bijection of the address's low 64 bits (for a given high half and data
 * center set): the slot is its low bits and the fingerprint all the others, so two addresses in
 * one /64 (every IPv4 address) can never be taken for each other; across /64s, only a full 64-bit
 * hash collision could. The mix is seeded per instance, so no one can aim collisions from outside.
 */
public final class RttChoices {
    /** 2^20 slots: 8 MiB, a slot per LDNS at the default {@code max-ldns} of a million. */
    static final int MAX_BITS = 20;
    /** At least 2^12 slots, so the fingerprint (64 bits less the slot's) fits beside the number. */
    static final int MIN_BITS = 12;
    /** A slot's low bits: data-center number + 1 (0 is an empty slot); numbers are below 1024. */
    private static final int DC_BITS = 11;

    static final int NONE = -1;

    private final AtomicLongArray slots;
    private final int bits;
    private final long mask;
    private final long seed;

    RttChoices(int bits, long seed) {
        if (bits < MIN_BITS || bits > MAX_BITS) {
            throw new IllegalArgumentException(
                    "RTT choices table of 2^" + bits + " slots; 2^" + MIN_BITS + "..2^" + MAX_BITS);
        }
        this.slots = new AtomicLongArray(1 << bits);
        this.bits = bits;
        this.mask = (1L << bits) - 1;
        this.seed = seed;
    }

    /**
     * A table for the LDNS {@code table} may hold: the next power of two at or above its
     * {@code max-ldns}, within 2^12..2^20 slots. A method built with no table (a configuration
     * check) gets the smallest.
     */
    public static RttChoices sizedFor(ProximityTable table) {
        int max = table == null ? 1 : table.settings().maxLdns();
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, max - 1));
        return new RttChoices(
                Math.clamp(bits, MIN_BITS, MAX_BITS),
                ThreadLocalRandom.current().nextLong());
    }

    int slots() {
        return slots.length();
    }

    /** The data center remembered for LDNS {@code hi:lo} among data centers {@code dataCenters}, or {@link #NONE}. */
    int previous(long hi, long lo, long dataCenters) {
        long h = hash(hi, lo, dataCenters);
        long v = slots.getOpaque((int) (h & mask));
        return v >>> DC_BITS == h >>> bits ? (int) (v & ((1 << DC_BITS) - 1)) - 1 : NONE;
    }

    /** Remembers {@code dataCenter} (its {@code PathNames} number) for LDNS {@code hi:lo} among {@code dataCenters}. */
    void remember(long hi, long lo, long dataCenters, int dataCenter) {
        long h = hash(hi, lo, dataCenters);
        int slot = (int) (h & mask);
        long v = (h >>> bits) << DC_BITS | (dataCenter + 1);
        if (slots.getOpaque(slot) != v) { // a steady answer leaves the cache line clean
            slots.setOpaque(slot, v);
        }
    }

    /** The slot of a key (tests find colliding addresses with it). */
    int slot(long hi, long lo, long dataCenters) {
        return (int) (hash(hi, lo, dataCenters) & mask);
    }

    /** For a given {@code hi} and set, a bijection of {@code lo}: the slot and fingerprint together are {@code lo}. */
    private long hash(long hi, long lo, long dataCenters) {
        return mix(lo ^ mix(hi ^ seed ^ mix(dataCenters + seed)));
    }

    /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
