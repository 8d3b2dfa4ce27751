package dev.gslb.probe.proximity;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The LDNS proximity table: LDNS address -> {@link LdnsEntry}. Readers (the DNS query path) use
 * a lock-free map lookup and get an immutable entry; writers replace entries atomically per key.
 * Every change is reported to the listeners (the H2 write-behind, later peer sync).
 */
public final class ProximityTable {
    /** How often the last-used time is rewritten: often enough for a 28-day TTL, rarely enough to be free. */
    private static final long TOUCH_GRANULARITY_MILLIS = 60_000;

    private final ConcurrentHashMap<LdnsKey, LdnsEntry> entries = new ConcurrentHashMap<>();
    private final ProximitySettings settings;
    private final Clock clock;
    private final List<Consumer<LdnsKey>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public ProximityTable(ProximitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public ProximitySettings settings() {
        return settings;
    }

    public Clock clock() {
        return clock;
    }

    public void onChange(Consumer<LdnsKey> listener) {
        listeners.add(listener);
    }

    private final List<java.util.function.BiConsumer<LdnsKey, Path>> pathListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Called with every path recorded (peer sync sends this data center's own paths on). */
    public void onPathRecorded(java.util.function.BiConsumer<LdnsKey, Path> listener) {
        pathListeners.add(listener);
    }

    private void changed(LdnsKey key) {
        for (Consumer<LdnsKey> l : listeners) {
            l.accept(key);
        }
    }

    public LdnsEntry get(LdnsKey key) {
        return entries.get(key);
    }

    private final ThreadLocal<LdnsKey.Probe> probes = ThreadLocal.withInitial(LdnsKey.Probe::new);

    /** The entry of an address given as two longs (IPv4 mapped), without allocating. */
    @SuppressWarnings("SuspiciousMethodCalls") // the probe key equals the LdnsKey of the same address
    public LdnsEntry get(long hi, long lo) {
        return entries.get(probes.get().set(hi, lo));
    }

    public int size() {
        return entries.size();
    }

    /** Notes that this LDNS asked us something; creates a PROBING entry for a new one. Returns the entry. */
    public LdnsEntry touch(LdnsKey key) {
        return touch(key.hi(), key.lo());
    }

    /** {@link #touch(LdnsKey)} without allocating when the entry was touched recently (the common case). */
    public LdnsEntry touch(long hi, long lo) {
        long now = clock.millis();
        LdnsEntry e = get(hi, lo);
        if (e != null && now - e.lastUsed() < TOUCH_GRANULARITY_MILLIS) {
            return e;
        }
        LdnsKey key = new LdnsKey(hi, lo);
        LdnsEntry updated = entries.compute(key, (k, old) -> old == null ? LdnsEntry.probing(now) : old.usedAt(now));
        changed(key);
        return updated;
    }

    /** Records a measured path (newer measured-at wins per data center); true when it was newer. */
    public boolean recordPath(LdnsKey key, Path path) {
        long now = clock.millis();
        boolean[] newer = {false};
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
        List<LdnsKey> touched = new ArrayList<>();
        entries.forEach((k, e) -> {
            for (Path p : e.paths()) {
                if (expired.test(p)) {
                    touched.add(k);
                    break;
                }
            }
        });
        for (LdnsKey k : touched) {
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
    public void forEachPath(String dataCenter, java.util.function.BiConsumer<LdnsKey, Path> action) {
        long cutoff = clock.millis() - settings.pathTtl().toMillis();
        entries.forEach((k, e) -> {
            Path p = e.path(dataCenter);
            if (p != null && p.measuredAt() >= cutoff) {
                action.accept(k, p);
            }
        });
    }

    /** Marks an LDNS that answered no probe: not probed again before the retry time. */
    public void markUnprobeable(LdnsKey key) {
        long retryAt = clock.millis() + settings.retry().toMillis();
        entries.compute(key, (k, old) -> (old == null ? LdnsEntry.probing(clock.millis()) : old).unprobeable(retryAt));
        changed(key);
    }

    /** Puts an entry as it was stored (start-up load). */
    public void restore(LdnsKey key, LdnsEntry entry) {
        entries.put(key, entry);
    }

    public boolean remove(LdnsKey key) {
        boolean removed = entries.remove(key) != null;
        if (removed) {
            changed(key);
        }
        return removed;
    }

    /** Removes LDNS that asked nothing for the inactive TTL; returns how many. */
    public int expireInactive() {
        long cutoff = clock.millis() - settings.inactiveTtl().toMillis();
        List<LdnsKey> gone = new ArrayList<>();
        entries.forEach((k, e) -> {
            if (e.lastUsed() < cutoff) {
                gone.add(k);
            }
        });
        gone.forEach(this::remove);
        return gone.size();
    }

    /** A weakly consistent view for listings and the store: each entry is whole, the set may move. */
    public Iterable<Map.Entry<LdnsKey, LdnsEntry>> entries() {
        return entries.entrySet();
    }
}
