package dev.gslb.probe.proximity;

import dev.gslb.topology.Address;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The LDNS proximity table: LDNS address -> {@link LdnsEntry}. Readers (the DNS query path) use
 * a lock-free map lookup and get an immutable entry; writers replace entries atomically per key.
 * Every change is reported to the listeners (the H2 write-behind, peer sync).
 *
 * <p>The table is bounded ({@code max-ldns}) because its keys come from the network: a new
 * entry is admitted only within its source network's rate, and when the table is full it takes
 * the place of an entry that was never measured (oldest first: spoofed sources are of this kind),
 * or failing that of the least recently asked. So LDNS that were measured and keep asking
 * survive a flood of new sources.
 */
public final class ProximityTable {
    /** How often the last-used time is rewritten: often enough for a 28-day TTL, rarely enough to be free. */
    /** An LDNS's last use is updated at most this often (the query path allocates nothing in between). */
    public static final long TOUCH_GRANULARITY_MILLIS = 60_000;

    private final LdnsEntries entries = new LdnsEntries();
    private final ProximitySettings settings;
    private final Clock clock;
    private final List<Consumer<Address>> listeners = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<Address, Path>> pathListeners = new CopyOnWriteArrayList<>();
    private final NetworkRate newPerNetwork;
    /**
     * The next entries to give way when the table is full, found by one scan: those never
     * measured (spoofed sources are of this kind), else the least recently asked; oldest first.
     * An entry that changed since the scan (asked again, measured) is passed over.
     */
    private final Deque<LdnsEntry> victims = new ArrayDeque<>();

    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong keptMoves = new AtomicLong();
    /** The margin entries keep their data center under ({@link LdnsEntry#keptDataCenter()}); set at start. */
    private volatile RttMargin margin = RttMargin.DEFAULT;

    public ProximityTable(ProximitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.newPerNetwork = new NetworkRate(settings.newPerNetwork(), settings.newPerNetworkBurst());
    }

    public ProximitySettings settings() {
        return settings;
    }

    public Clock clock() {
        return clock;
    }

    /** The configured RTT margin (load-balancing.rtt-margin*), before the first path is recorded. */
    public void rttMargin(RttMargin margin) {
        this.margin = margin;
    }

    public void onChange(Consumer<Address> listener) {
        listeners.add(listener);
    }

    /** Called with every path recorded (peer sync sends this data center's own paths on). */
    public void onPathRecorded(BiConsumer<Address, Path> listener) {
        pathListeners.add(listener);
    }

    private void changed(Address key) {
        for (Consumer<Address> l : listeners) {
            l.accept(key);
        }
    }

    public LdnsEntry get(Address key) {
        return entries.get(key.hi(), key.lo());
    }

    /** The entry of an address given as two longs (IPv4 mapped), without allocating. */
    public LdnsEntry get(long hi, long lo) {
        return entries.get(hi, lo);
    }

    public int size() {
        return entries.size();
    }

    /** Notes that this LDNS asked us something; creates a PROBING entry for a new one. Returns the entry. */
    public LdnsEntry touch(Address key) {
        return touch(key.hi(), key.lo());
    }

    /**
     * {@link #touch(Address)} without allocating when the entry was touched recently (the common
     * case). Null when a new LDNS is refused: its network is over its rate, or the table is full
     * of entries that may not give way.
     */
    public LdnsEntry touch(long hi, long lo) {
        return touch(hi, lo, clock.millis());
    }

    /** {@link #touch(long, long)} at {@code now} by this table's clock, read once by a caller that needs it too. */
    public LdnsEntry touch(long hi, long lo, long now) {
        LdnsEntry e = get(hi, lo);
        if (e != null && now - e.lastUsed() < TOUCH_GRANULARITY_MILLIS) {
            return e;
        }
        if (e == null) {
            if (!newPerNetwork.tryAcquire(hi, lo, now)) {
                refused.incrementAndGet();
                return null;
            }
            if (!makeRoom()) {
                return null;
            }
        }
        boolean[] created = {false};
        LdnsEntry updated = entries.compute(hi, lo, old -> {
            created[0] = old == null;
            return old == null ? LdnsEntry.probing(now) : old.usedAt(now);
        });
        if (created[0]) {
            admitted.incrementAndGet();
        }
        changed(new Address(hi, lo));
        return updated;
    }

    /** True when {@code key} is in the table or a place could be made for it. */
    private boolean roomFor(Address key) {
        // the size first: a lookup of its own for each of a snapshot's millions of paths cost a tenth
        return entries.size() < settings.maxLdns() || get(key) != null || makeRoom();
    }

    /** Frees one place when the table is full; false (and counted) when nothing may give way. */
    private boolean makeRoom() {
        while (entries.size() >= settings.maxLdns()) {
            if (!evictOne()) {
                refused.incrementAndGet();
                return false;
            }
        }
        return true;
    }

    private boolean evictOne() {
        synchronized (victims) {
            for (int pass = 0; pass < 2; pass++) {
                if (victims.isEmpty()) {
                    findVictims();
                }
                for (LdnsEntry v; (v = victims.poll()) != null; ) {
                    if (entries.remove(v.hi(), v.lo(), v)) { // unchanged since the scan
                        evicted.incrementAndGet();
                        changed(new Address(v.hi(), v.lo()));
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Collects about 1 % of the table in one pass: the entries never measured, oldest first, or
     * when there are none the least recently asked; the cut-off is estimated from a sample, so a
     * full table costs one scan per hundredth of its size.
     */
    private void findVictims() {
        int most = Math.max(16, entries.size() / 100);
        List<LdnsEntry> unmeasured = new ArrayList<>();
        long[] sample = new long[Math.min(1024, entries.size())];
        int[] n = {0};
        entries.forEach(e -> {
            if (e.pathCount() == 0 && unmeasured.size() < most) {
                unmeasured.add(e);
            }
            if (n[0] < sample.length) {
                sample[n[0]++] = e.lastUsed();
            }
        });
        List<LdnsEntry> batch = unmeasured;
        if (batch.isEmpty() && n[0] > 0) {
            Arrays.sort(sample, 0, n[0]);
            long cutoff = sample[Math.max(0, n[0] / 100)];
            int cap = Math.max(16, entries.size() / 25); // the estimate may be off; never hold more than 4 %
            entries.forEach(e -> {
                if (e.lastUsed() <= cutoff && batch.size() < cap) {
                    batch.add(e);
                }
            });
        }
        batch.sort(Comparator.comparingLong(LdnsEntry::lastUsed)); // oldest first
        victims.addAll(batch);
    }

    /** New LDNS admitted since start. */
    public long admitted() {
        return admitted.get();
    }

    /** Entries that gave way to new ones because the table was full. */
    public long evicted() {
        return evicted.get();
    }

    /** New LDNS refused: over their network's rate, or nothing could give way. */
    public long refused() {
        return refused.get();
    }

    /**
     * How often a recorded path moved an LDNS's {@link LdnsEntry#keptDataCenter() kept} data center
     * to another (one became better by the RTT margin, or the choice was made afresh): its answers
     * moved. Not counted: the first choice, and none kept any more.
     */
    public long keptMoves() {
        return keptMoves.get();
    }

    /** Records a measured path (newer measured-at wins per data center); true when it was newer. */
    public boolean recordPath(Address key, Path path) {
        return recordPath(key, path, () -> true);
    }

    /**
     * Records a path as {@link #recordPath(Address, Path)}, but a new entry only when {@code
     * mayCreate} (asked at most once, and only for an LDNS not in the table) says so: a peer's
     * budget of new LDNS, decided in the one lookup (a snapshot's millions of paths looked each up
     * twice).
     */
    public boolean recordPath(Address key, Path path, BooleanSupplier mayCreate) {
        if (entries.size() < settings.maxLdns()) {
            return record(key, path, mayCreate);
        }
        // full: a place is made only for a new LDNS that is let in
        if (get(key) == null && (!mayCreate.getAsBoolean() || !makeRoom())) {
            return false;
        }
        return record(key, path, () -> true);
    }

    private boolean record(Address key, Path path, BooleanSupplier mayCreate) {
        boolean[] newer = {false};
        entries.compute(key.hi(), key.lo(), old -> {
            if (old == null && !mayCreate.getAsBoolean()) {
                return null;
            }
            // the clock read for a new entry only: a snapshot's millions of paths read it each before
            // at its address: the kept data center's preference is the LDNS's own
            LdnsEntry base = old == null ? LdnsEntry.probing(clock.millis(), key.hi(), key.lo()) : old;
            LdnsEntry next = base.withPath(path, margin);
            newer[0] = next != base;
            if (old != null
                    && old.keptDataCenter() != LdnsEntry.NOT_KEPT
                    && next.keptDataCenter() != LdnsEntry.NOT_KEPT
                    && next.keptDataCenter() != old.keptDataCenter()) {
                keptMoves.incrementAndGet();
            }
            return next;
        });
        if (newer[0]) {
            changed(key);
            pathListeners.forEach(l -> l.accept(key, path));
        }
        return newer[0];
    }

    /**
     * Applies a 3DNS dump already read whole ({@link ThreeDnsFormat#read}): each path as measured
     * now by {@link ThreeDnsFormat#IMPORTED_BY} (the dump carries no time; the refresh re-measures
     * the LDNS in use), recorded like any path (newer wins). Returns the paths recorded; an LDNS the
     * full table refuses is left out.
     */
    public int importDump(ThreeDnsFormat.Dump dump) {
        long now = clock.millis();
        int recorded = 0;
        for (ThreeDnsFormat.Ldns l : dump.entries()) {
            for (ThreeDnsFormat.Dumped d : l.paths()) {
                Path p = Path.of(
                        d.dataCenter(),
                        d.rttMicros(),
                        d.completion(),
                        d.hops(),
                        l.protocol(),
                        now,
                        ThreeDnsFormat.IMPORTED_BY);
                if (recordPath(l.address(), p)) {
                    recorded++;
                }
            }
        }
        return recorded;
    }

    /**
     * Removes the paths measured before {@code cutoff} but for {@code keepDataCenter}'s (peer paths
     * past their TTL; this instance's own are refreshed, not expired); returns how many. The sync
     * runs it every heartbeat over the whole table, so the walk reads the packed paths in place:
     * building a {@link Path} per path for a test made it a third of a core at 3,000,000 LDNS.
     */
    public int removePathsMeasuredBefore(long cutoff, String keepDataCenter) {
        int keep = PathNames.SHARED.number(keepDataCenter);
        List<LdnsEntry> touched = new ArrayList<>();
        entries.forEach(e -> {
            if (e.hasPathMeasuredBefore(cutoff, keep)) {
                touched.add(e);
            }
        });
        int[] removed = {0};
        for (LdnsEntry t : touched) {
            entries.compute(t.hi(), t.lo(), e -> {
                if (e == null) {
                    return null;
                }
                LdnsEntry kept = e.withoutPathsMeasuredBefore(cutoff, keep);
                removed[0] += e.pathCount() - kept.pathCount();
                return kept;
            });
            changed(new Address(t.hi(), t.lo()));
        }
        return removed[0];
    }

    /** Every path of one data center that is still fresh, for a snapshot to a (re)connected peer. */
    public void forEachPath(String dataCenter, BiConsumer<Address, Path> action) {
        long cutoff = clock.millis() - settings.pathTtl().toMillis();
        int number = PathNames.SHARED.number(dataCenter); // a snapshot's millions of entries compare no names
        entries.forEach(e -> {
            int i = e.pathIndexByNumber(number);
            if (i >= 0 && e.measuredAt(i) >= cutoff) {
                action.accept(new Address(e.hi(), e.lo()), e.path(i));
            }
        });
    }

    /** Marks an LDNS that answered no probe: not probed again before the retry time. */
    public void markUnprobeable(Address key) {
        long retryAt = clock.millis() + settings.retry().toMillis();
        if (!roomFor(key)) {
            return;
        }
        entries.compute(
                key.hi(),
                key.lo(),
                old -> (old == null ? LdnsEntry.probing(clock.millis()) : old).unprobeable(retryAt));
        changed(key);
    }

    /**
     * Puts an entry as it was stored (the store's load, while queries, probes and peers already
     * write): an LDNS already here keeps its entry, with each stored path that is newer than its
     * own. False once the table is full.
     */
    public boolean restore(Address key, LdnsEntry entry) {
        if (entries.size() >= settings.maxLdns() && get(key) == null) {
            return false;
        }
        entries.compute(key.hi(), key.lo(), old -> {
            if (old == null) {
                return margin.off() ? entry.keepingNone() : entry; // answers go to the lowest estimate
            }
            LdnsEntry merged = old;
            for (int i = 0; i < entry.pathCount(); i++) {
                int mine = merged.pathIndex(entry.dataCenter(i));
                if (mine < 0 || merged.measuredAt(mine) < entry.measuredAt(i)) { // a tie is the live one's
                    merged = merged.withPath(entry.path(i), margin);
                }
            }
            return merged;
        });
        return true;
    }

    public boolean remove(Address key) {
        boolean removed = entries.remove(key.hi(), key.lo(), null);
        if (removed) {
            changed(key);
        }
        return removed;
    }

    /** Removes LDNS that asked nothing for the inactive TTL; returns how many. */
    public int expireInactive() {
        long cutoff = clock.millis() - settings.inactiveTtl().toMillis();
        List<Address> gone = new ArrayList<>();
        entries.forEach(e -> {
            if (e.lastUsed() < cutoff) {
                gone.add(new Address(e.hi(), e.lo()));
            }
        });
        gone.forEach(this::remove);
        return gone.size();
    }

    /** How many LDNS are in each state, indexed by {@link LdnsEntry.State#ordinal()}; no pass over the table. */
    public long[] countByState() {
        return entries.countByState();
    }

    /**
     * Every entry, weakly consistent, without making an address or a map entry for each: the
     * status page's counts and histogram pass over a million of them.
     */
    public void forEachEntry(Consumer<LdnsEntry> action) {
        for (Iterator<LdnsEntry> it = entries.iterator(); it.hasNext(); ) {
            action.accept(it.next());
        }
    }

    /** A weakly consistent view for listings and the store: each entry is whole, the set may move. */
    public Iterable<Map.Entry<Address, LdnsEntry>> entries() {
        return () -> new Iterator<>() {
            private final Iterator<LdnsEntry> all = entries.iterator();

            @Override
            public boolean hasNext() {
                return all.hasNext();
            }

            @Override
            public Map.Entry<Address, LdnsEntry> next() {
                LdnsEntry e = all.next();
                return Map.entry(new Address(e.hi(), e.lo()), e);
            }
        };
    }
}
