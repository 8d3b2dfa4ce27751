package dev.gslb.dns.wideip;

import dev.gslb.dns.method.StaticPersistence;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.xbill.DNS.Name;

/**
 * F5's persistence for wide IPs with a {@code persistence-ttl}: the virtual server a client
 * network (the client subnet or LDNS cut to the persistence prefix, /24 and /56 by default) was
 * answered with is remembered for that long and answered again while it stays available, even
 * when members come and go. Paired instances tell each other every entry (a sync item), so both
 * answer a network alike.
 *
 * <p>A fixed table of {@value #SLOTS} slots, indexed by hash: the query path reads one slot and
 * compares, allocating nothing; an entry is an object only when a new network is answered. Two
 * networks in one slot take turns (the newer overwrites): the memory is bounded whatever the
 * traffic.
 */
public final class PersistenceTable {
    static final int SLOTS = 1 << 20;

    /** A remembered answer: {@code hi/lo} the network in the 128-bit form, {@code server} by name. */
    public record Entry(Name wideIp, long hi, long lo, String server, long expiresAt) {
        boolean sameNetwork(Entry o) {
            return o.hi == hi && o.lo == lo && o.wideIp.equals(wideIp);
        }
    }

    /**
     * The server of an entry an operator cleared (gslb persist clear): the listener hears of the
     * clearing as such an entry, and a peer that receives one removes its own. A peer that predates
     * it keeps it as a server no pool has, which the methods answer past.
     */
    public static final String CLEARED = "";

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);
    private final int prefixV4;
    private final int prefixV6;
    private volatile Consumer<Entry> recorded = e -> {};

    public PersistenceTable(StaticPersistence.Settings settings) {
        this.prefixV4 = settings.prefixV4();
        this.prefixV6 = settings.prefixV6();
    }

    /** Hears of every entry this instance makes (peer sync sends it on). */
    public void onRecorded(Consumer<Entry> listener) {
        this.recorded = listener;
    }

    public int prefix(boolean v4) {
        return v4 ? prefixV4 : prefixV6;
    }

    private static int slot(Name w, long hi, long lo) {
        long h = (hi * 0x9E3779B97F4A7C15L) ^ (lo * 0xC2B2AE3D27D4EB4FL) ^ w.hashCode();
        h ^= h >>> 29;
        return (int) (h & (SLOTS - 1));
    }

    /** The server remembered for this network, or null. */
    public String lookup(Name w, long hi, long lo, long now) {
        Entry e = slots.get(slot(w, hi, lo));
        return e != null
                        && e.hi() == hi
                        && e.lo() == lo
                        && e.expiresAt() > now
                        && e.wideIp().equals(w)
                ? e.server()
                : null;
    }

    /** This instance answered the network with {@code server}. */
    public void record(Name w, long hi, long lo, String server, long expiresAt) {
        Entry e = new Entry(w, hi, lo, server, expiresAt);
        slots.set(slot(w, hi, lo), e);
        recorded.accept(e);
    }

    /**
     * A peer answered the network with {@code e.server()}. When both answered it at once with
     * different servers, both keep the lesser name, so the pair agrees.
     */
    public void received(Entry e, long now) {
        int i = slot(e.wideIp(), e.hi(), e.lo());
        Entry mine = slots.get(i);
        if (e.server().equals(CLEARED)) {
            if (mine != null && mine.sameNetwork(e)) {
                slots.compareAndSet(i, mine, null);
            }
            return;
        }
        if (mine != null
                && mine.hi() == e.hi()
                && mine.lo() == e.lo()
                && mine.wideIp().equals(e.wideIp())
                && mine.expiresAt() > now
                && mine.server().compareTo(e.server()) <= 0) {
            return;
        }
        slots.set(i, e);
    }

    /**
     * Removes the live entries {@code which} selects and tells the listener of each (as an entry of
     * server {@link #CLEARED}), so that the peers remove theirs; how many. Walks the whole table.
     */
    public int clear(Predicate<Entry> which, long now) {
        int n = 0;
        for (int i = 0; i < SLOTS; i++) {
            Entry e = slots.get(i);
            if (e != null && e.expiresAt() > now && which.test(e) && slots.compareAndSet(i, e, null)) {
                n++;
                recorded.accept(new Entry(e.wideIp(), e.hi(), e.lo(), CLEARED, e.expiresAt()));
            }
        }
        return n;
    }

    /** Every entry that has not expired (a peer's snapshot, `gslb stats`); walks the whole table. */
    public void forEachLive(long now, Consumer<Entry> out) {
        for (int i = 0; i < SLOTS; i++) {
            Entry e = slots.get(i);
            if (e != null && e.expiresAt() > now) {
                out.accept(e);
            }
        }
    }
}
