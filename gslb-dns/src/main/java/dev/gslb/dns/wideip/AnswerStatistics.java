package dev.gslb.dns.wideip;

import dev.gslb.site.VirtualServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.xbill.DNS.Name;

/**
 * How the answers split, per wide IP (the source's "statistics list": CNC 62 %, TEL 38 %): by
 * data center, virtual server, pool and deciding method, over the last minute, the last hour and
 * since start. Bounded: at most {@code maxWideIps} wide IPs get their own counts, the rest are
 * counted under {@code other}; the labels under a wide IP are the configuration's own names.
 * Counting is on the query path: four atomic adds, and map lookups only when a thread's decision
 * differs from its last one ({@link Recent}); no allocation.
 */
public final class AnswerStatistics {
    static final int BUCKET_MILLIS = 10_000;
    static final int BUCKETS = 360; // one hour of 10-second buckets
    public static final String OTHER = "other";
    private static final String FAILURE = "failure";

    /**
     * One counted thing: 10-second buckets over the last hour, and what older buckets held. The
     * total since start is the two together, so an answer costs one atomic add, not two (this
     * runs four times per wide-IP answer). A bucket's epoch and count sit side by side (slots 2i
     * and 2i+1, 16 bytes that never straddle a cache line), so an add touches one line, not two.
     */
    static final class Series {
        private final AtomicLong retired = new AtomicLong();
        private final AtomicLongArray cells = new AtomicLongArray(2 * BUCKETS);

        void add(long nowMillis) {
            long epoch = nowMillis / BUCKET_MILLIS;
            int i = 2 * (int) (epoch % BUCKETS);
            long was = cells.get(i);
            if (was != epoch && cells.compareAndSet(i, was, epoch)) {
                // The bucket's hour-old count moves to the total; a racing add of the new epoch
                // may go with it: counted since start, missing from the hour.
                retired.addAndGet(cells.getAndSet(i + 1, 0));
            }
            cells.incrementAndGet(i + 1);
        }

        private long epoch(int bucket) {
            return cells.get(2 * bucket);
        }

        private long count(int bucket) {
            return cells.get(2 * bucket + 1);
        }

        /** Adds this series' answers per minute of the last hour into {@code minutes} (oldest first). */
        void perMinute(long nowMillis, long[] minutes) {
            long newest = nowMillis / BUCKET_MILLIS;
            int perMinute = 60_000 / BUCKET_MILLIS;
            for (int i = 0; i < BUCKETS; i++) {
                long age = newest - epoch(i);
                if (age >= 0 && age < BUCKETS) {
                    minutes[minutes.length - 1 - (int) (age / perMinute)] += count(i);
                }
            }
        }

        /** Answers within the last {@code windowMillis} (to bucket precision); -1: since start. */
        long count(long nowMillis, long windowMillis) {
            if (windowMillis < 0) {
                long sum = retired.get();
                for (int i = 0; i < BUCKETS; i++) {
                    sum += count(i);
                }
                return sum;
            }
            long newest = nowMillis / BUCKET_MILLIS;
            long oldest = newest - windowMillis / BUCKET_MILLIS + 1;
            long sum = 0;
            for (int i = 0; i < BUCKETS; i++) {
                long e = epoch(i);
                if (e >= oldest && e <= newest) {
                    sum += count(i);
                }
            }
            return sum;
        }
    }

    /**
     * The counts of one wide IP (or of every wide IP past the bound). Every answer is counted
     * under exactly one method ("failure" when no pool decided), so the methods' sum is the total.
     */
    static final class Tally {
        final Map<String, Series> dataCenters = new ConcurrentHashMap<>();
        final Map<String, Series> servers = new ConcurrentHashMap<>();
        final Map<String, Series> pools = new ConcurrentHashMap<>();
        final Map<String, Series> methods = new ConcurrentHashMap<>();

        static Series series(Map<String, Series> map, String key) {
            Series s = map.get(key);
            return s != null ? s : map.computeIfAbsent(key, k -> new Series());
        }

        long answers(long now, long windowMillis) {
            long sum = 0;
            for (Series s : methods.values()) {
                sum += s.count(now, windowMillis);
            }
            return sum;
        }
    }

    /**
     * One thread's last counted decision and the series it went to, so that the same decision
     * again (the common case: one wide IP, one method, one answer for a while) costs no map
     * lookup. Keys are compared by identity: the names come from the configuration's objects, and
     * a reload's new objects only cost one lookup each. Owned by one thread: no race.
     */
    public static final class Recent {
        private AnswerStatistics owner;
        private WideIp wideIp;
        private Tally tally;
        private final Keyed method = new Keyed();
        private final Keyed pool = new Keyed();
        private final Keyed server = new Keyed();
        private final Keyed dataCenter = new Keyed();

        private Tally tally(AnswerStatistics s, WideIp w) {
            if (s != owner || w != wideIp) {
                Tally t = s.tally(w);
                if (t != tally) {
                    method.key = pool.key = server.key = dataCenter.key = null; // another tally's series
                }
                owner = s;
                wideIp = w;
                tally = t;
            }
            return tally;
        }
    }

    private static final class Keyed {
        private String key;
        private Series series;

        Series of(Map<String, Series> map, String k) {
            if (k != key) {
                series = Tally.series(map, k);
                key = k;
            }
            return series;
        }
    }

    /** A share of the answers in one window. */
    public record Share(String name, long answers, double percent) {}

    /** One window of one wide IP: how many answers, and how they split. */
    public record Window(
            long answers, List<Share> dataCenters, List<Share> servers, List<Share> pools, List<Share> methods) {}

    /** What `gslb stats` shows for one wide IP. */
    public record WideIpView(String name, Window lastMinute, Window lastHour, Window sinceStart) {}

    private final int maxWideIps;
    private final Map<Name, Tally> byWideIp = new ConcurrentHashMap<>();
    private final Tally other = new Tally();
    private final LdnsSeen ldns = new LdnsSeen();

    /** The LDNS counts over the last minute, the last hour and since start. */
    public record LdnsView(LdnsSeen.Split lastMinute, LdnsSeen.Split lastHour, LdnsSeen.Split sinceStart) {}

    public AnswerStatistics(int maxWideIps) {
        this.maxWideIps = maxWideIps;
    }

    /** Wide IPs counted on their own; the rest together as {@value #OTHER}. */
    public int maxWideIps() {
        return maxWideIps;
    }

    private Tally tally(WideIp w) {
        Tally t = byWideIp.get(w.name());
        if (t == null) {
            t = byWideIp.size() < maxWideIps ? byWideIp.computeIfAbsent(w.name(), n -> new Tally()) : other;
        }
        return t;
    }

    /**
     * Counts one decision of {@code w} for the LDNS at {@code ldnsHi/Lo} (a query's, not an
     * explanation's), through the calling thread's {@code recent}.
     */
    public void record(WideIp w, WideIpResolver.Result r, long now, long ldnsHi, long ldnsLo, Recent recent) {
        Tally t = recent.tally(this, w);
        if (r.outcome() == null) {
            recent.method.of(t.methods, FAILURE).add(now); // no pool decided: the wide IP's failure behaviour
            return;
        }
        recent.method.of(t.methods, r.method().name()).add(now);
        recent.pool.of(t.pools, r.pool().name()).add(now);
        if (r.count() > 0) {
            VirtualServer vs = r.answer(0); // the chosen one: where the users are sent
            String dc = vs.dataCenter().name();
            recent.server.of(t.servers, vs.name()).add(now);
            recent.dataCenter.of(t.dataCenters, dc).add(now);
            ldns.saw(ldnsHi, ldnsLo, dc, now);
        }
    }

    /**
     * Answers per minute over the last hour (60 values, oldest first), all wide IPs together: by
     * data center and by deciding method (the status page's time series).
     */
    public record Timeline(long endMillis, Map<String, long[]> dataCenters, Map<String, long[]> methods) {}

    public Timeline timeline(long now) {
        Map<String, long[]> dcs = new java.util.TreeMap<>();
        Map<String, long[]> methods = new java.util.TreeMap<>();
        List<Tally> all = new ArrayList<>(byWideIp.values());
        all.add(other);
        for (Tally t : all) {
            t.dataCenters.forEach((k, v) -> v.perMinute(now, dcs.computeIfAbsent(k, x -> new long[60])));
            t.methods.forEach((k, v) -> v.perMinute(now, methods.computeIfAbsent(k, x -> new long[60])));
        }
        return new Timeline(now, dcs, methods);
    }

    /** How many LDNS were sent to each data center, and how many are in each topology region. */
    public LdnsView ldns(long now, LdnsSeen.Regions regions) {
        return new LdnsView(
                ldns.split(now, 60_000, regions), ldns.split(now, 3_600_000, regions), ldns.split(now, -1, regions));
    }

    /** Every wide IP counted (the bounded rest as {@value #OTHER}), or only {@code only} when given. */
    public List<WideIpView> view(long now, Name only) {
        List<WideIpView> out = new ArrayList<>();
        byWideIp.forEach((name, t) -> {
            if (only == null || only.equals(name)) {
                out.add(view(name.toString(), t, now));
            }
        });
        out.sort(Comparator.comparing(WideIpView::name));
        if (only == null && other.answers(now, -1) > 0) {
            out.add(view(OTHER, other, now));
        }
        return out;
    }

    private static WideIpView view(String name, Tally t, long now) {
        return new WideIpView(name, window(t, now, 60_000), window(t, now, 3_600_000), window(t, now, -1));
    }

    private static Window window(Tally t, long now, long millis) {
        long total = t.answers(now, millis);
        return new Window(
                total,
                shares(t.dataCenters, now, millis, total),
                shares(t.servers, now, millis, total),
                shares(t.pools, now, millis, total),
                shares(t.methods, now, millis, total));
    }

    private static List<Share> shares(Map<String, Series> map, long now, long millis, long total) {
        List<Share> out = new ArrayList<>();
        map.forEach((name, s) -> {
            long n = s.count(now, millis);
            if (n > 0) {
                out.add(new Share(name, n, total == 0 ? 0 : Math.round(n * 1000.0 / total) / 10.0));
            }
        });
        out.sort(Comparator.comparingLong(Share::answers).reversed().thenComparing(Share::name));
        return out;
    }
}
