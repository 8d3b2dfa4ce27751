package dev.gslb.probe.proximity;

import dev.gslb.topology.Address;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
    private static final long TOUCH_GRANULARITY_MILLIS = 60_000;

    private final ConcurrentHashMap<Address, LdnsEntry> entries = new ConcurrentHashMap<>();
    private final ProximitySettings settings;
    private final Clock clock;
    private final List<Consumer<Address>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final NetworkRate newPerNetwork;
    /** Entries created without a path, oldest first: the first to give way when the table is full. */
    private final BlockingQueue<Address> unmeasured;
    /** The least recently asked entries, refilled by one scan when the unmeasured ones run out. */
    private final Deque<Address> leastRecent = new ArrayDeque<>();

    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    public ProximityTable(ProximitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.newPerNetwork = new NetworkRate(settings.newPerNetwork(), settings.newPerNetworkBurst());
        this.unmeasured = new ArrayBlockingQueue<>(settings.maxLdns());
    }

    public ProximitySettings settings() {
        return settings;
    }

    public Clock clock() {
        return clock;
    }

    public void onChange(Consumer<Address> listener) {
        listeners.add(listener);
    }

    private final List<java.util.function.BiConsumer<Address, Path>> pathListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Called with every path recorded (peer sync sends this data center's own paths on). */
    public void onPathRecorded(java.util.function.BiConsumer<Address, Path> listener) {
        pathListeners.add(listener);
    }

    private void changed(Address key) {
        for (Consumer<Address> l : listeners) {
            l.accept(key);
        }
    }

    public LdnsEntry get(Address key) {
        return entries.get(key);
    }

    private final ThreadLocal<Address.Reusable> probes = ThreadLocal.withInitial(Address.Reusable::new);

    /** The entry of an address given as two longs (IPv4 mapped), without allocating. */
    // The probe key equals the Address of the same address (CHM.get calls probe.equals(key)).
    @SuppressWarnings({"SuspiciousMethodCalls", "CollectionIncompatibleType"})
    public LdnsEntry get(long hi, long lo) {
        return entries.get(probes.get().set(hi, lo));
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
        long now = clock.millis();
        LdnsEntry e = get(hi, lo);
        if (e != null && now - e.lastUsed() < TOUCH_GRANULARITY_MILLIS) {
            return e;
        }
        Address key = new Address(hi, lo);
        if (e == null) {
            if (!newPerNetwork.tryAcquire(hi, lo)) {
                refused.incrementAndGet();
                return null;
            }
            if (!makeRoom()) {
                return null;
            }
        }
        LdnsEntry[] created = {null};
        LdnsEntry updated =
                entries.compute(key, (k, old) -> old == null ? created[0] = LdnsEntry.probing(now) : old.usedAt(now));
        if (created[0] != null) {
            admittedUnmeasured(key);
        }
        changed(key);
        return updated;
    }

    private void admittedUnmeasured(Address key) {
        admitted.incrementAndGet();
        // A full queue means it holds keys of entries measured or gone since: drop a few of those.
        for (int i = 0; i < 16 && !unmeasured.offer(key); i++) {
            Address head = unmeasured.poll();
            LdnsEntry h = head == null ? null : entries.get(head);
            if (h != null && h.paths().length == 0) {
                unmeasured.offer(head);
            }
        }
    }

    /** True when {@code key} is in the table or a place could be made for it. */
    private boolean roomFor(Address key) {
        return entries.containsKey(key) || makeRoom();
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
        for (Address k; (k = unmeasured.poll()) != null; ) {
            LdnsEntry e = entries.get(k);
            if (e != null && e.paths().length == 0 && entries.remove(k, e)) {
                evicted(k);
                return true;
            }
        }
        synchronized (leastRecent) {
            if (leastRecent.isEmpty()) {
                fillLeastRecent();
            }
            for (Address k; (k = leastRecent.poll()) != null; ) {
                if (entries.remove(k) != null) {
                    evicted(k);
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Collects about the least recently asked 1 % in one pass: the cut-off is estimated from a
     * sample, so a full table of measured LDNS costs one scan per hundredth of its size.
     */
    private void fillLeastRecent() {
        long[] sample = new long[Math.min(1024, entries.size())];
        int n = 0;
        for (LdnsEntry e : entries.values()) {
            if (n == sample.length) {
                break;
            }
            sample[n++] = e.lastUsed();
        }
        if (n == 0) {
            return;
        }
        Arrays.sort(sample, 0, n);
        long cutoff = sample[Math.max(0, n / 100)];
        int most = Math.max(16, entries.size() / 25); // the estimate may be off; never hold more than 4 %
        List<Map.Entry<Address, Long>> batch = new ArrayList<>();
        for (Map.Entry<Address, LdnsEntry> e : entries.entrySet()) {
            if (e.getValue().lastUsed() <= cutoff && batch.size() < most) {
                batch.add(Map.entry(e.getKey(), e.getValue().lastUsed()));
            }
        }
        batch.sort(Map.Entry.comparingByValue()); // oldest first
        batch.forEach(e -> leastRecent.add(e.getKey()));
    }

    private void evicted(Address key) {
        evicted.incrementAndGet();
        changed(key);
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

    /** Records a measured path (newer measured-at wins per data center); true when it was newer. */
    public boolean recordPath(Address key, Path path) {
        long now = clock.millis();
        boolean[] newer = {false};
        if (!roomFor(key)) {
            return false;
        }
        entries.compute(key, (k, old) -> {
            LdnsEntry base = old == null ? LdnsEntry.probing(now) : old;
            LdnsEntry next = base.withPath(path);
            newer[0] = next != base;
            return next;
        });
        if (newer[0]) {
            changed(key);
            pathListeners.forEach(l -> l.accept(key, path));
        }
        return newer[0];
    }

    /** Removes the paths {@code expired} selects (peer paths past their TTL); returns how many. */
    public int removePaths(java.util.function.Predicate<Path> expired) {
        int[] removed = {0};
        List<Address> touched = new ArrayList<>();
        entries.forEach((k, e) -> {
            for (Path p : e.paths()) {
                if (expired.test(p)) {
                    touched.add(k);
                    break;
                }
            }
        });
        for (Address k : touched) {
            entries.computeIfPresent(k, (key, e) -> {
                List<Path> keep = new ArrayList<>();
                for (Path p : e.paths()) {
                    if (expired.test(p)) {
                        removed[0]++;
                    } else {
                        keep.add(p);
                    }
                }
                return new LdnsEntry(keep.toArray(Path[]::new), e.state(), e.protocol(), e.retryAt(), e.lastUsed());
            });
            changed(k);
        }
        return removed[0];
    }

    /** Every path of one data center that is still fresh, for a snapshot to a (re)connected peer. */
    public void forEachPath(String dataCenter, java.util.function.BiConsumer<Address, Path> action) {
        long cutoff = clock.millis() - settings.pathTtl().toMillis();
        entries.forEach((k, e) -> {
            Path p = e.path(dataCenter);
            if (p != null && p.measuredAt() >= cutoff) {
                action.accept(k, p);
            }
        });
    }

    /** Marks an LDNS that answered no probe: not probed again before the retry time. */
    public void markUnprobeable(Address key) {
        long retryAt = clock.millis() + settings.retry().toMillis();
        if (!roomFor(key)) {
            return;
        }
        entries.compute(key, (k, old) -> (old == null ? LdnsEntry.probing(clock.millis()) : old).unprobeable(retryAt));
        changed(key);
    }

    /** Puts an entry as it was stored (start-up load); false once the table is full. */
    public boolean restore(Address key, LdnsEntry entry) {
        if (entries.size() >= settings.maxLdns()) {
            return false;
        }
        if (entries.put(key, entry) == null && entry.paths().length == 0) {
            unmeasured.offer(key);
        }
        return true;
    }

    public boolean remove(Address key) {
        boolean removed = entries.remove(key) != null;
        if (removed) {
            changed(key);
        }
        return removed;
    }

    /** Removes LDNS that asked nothing for the inactive TTL; returns how many. */
    public int expireInactive() {
        long cutoff = clock.millis() - settings.inactiveTtl().toMillis();
        List<Address> gone = new ArrayList<>();
        entries.forEach((k, e) -> {
            if (e.lastUsed() < cutoff) {
                gone.add(k);
            }
        });
        gone.forEach(this::remove);
        return gone.size();
    }

    /** A weakly consistent view for listings and the store: each entry is whole, the set may move. */
    public Iterable<Map.Entry<Address, LdnsEntry>> entries() {
        return entries.entrySet();
    }
}
