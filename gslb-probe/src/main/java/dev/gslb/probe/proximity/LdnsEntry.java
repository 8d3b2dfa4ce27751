package dev.gslb.probe.proximity;

import dev.gslb.probe.ProbeProtocol;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * One LDNS in the proximity table: its address, a path per data center, the probe state, and
 * when it was last seen asking. Immutable: a change builds a new entry and the table swaps it in,
 * so the query path always reads a whole one.
 *
 * <p>Millions of these are held, so an entry is as small as it can be made: one object, and for
 * more than two paths one array beside it (two paths, the usual pair of links, live in the
 * object's own fields). A path is its metrics in a long, its age in seconds before the entry's
 * newest path, and the number of its data center and measuring instance ({@link PathNames}):
 * twelve bytes, eleven in an array ({@link Many}), instead of a {@link Path} object with its own
 * header and references. Times are kept in whole seconds (an LDNS's use, its retry, a path's
 * measurement): path TTLs are minutes. The query path reads a path's fields by index without
 * building a {@link Path}; listings, the store and sync get {@link Path} values from
 * {@link #paths()}.
 */
public abstract sealed class LdnsEntry permits LdnsEntry.Few, LdnsEntry.Many {
    public enum State {
        PROBING,
        PROBED,
        UNPROBEABLE
    }

    private static final State[] STATES = State.values();
    private static final ProbeProtocol[] PROTOCOLS = ProbeProtocol.values();
    /** Seconds are kept unsigned in 32 bits: up to the year 2106. */
    private static final long MAX_SECONDS = 0xFFFF_FFFFL;
    /**
     * A path's age before the entry's newest path, in seconds, in 22 bits (48.5 days); an older
     * one is kept as that old: either way far past any path TTL.
     */
    private static final long MAX_AGE = (1 << 22) - 1;
    /** How often an LDNS asked, saturating in 14 bits (11 days of minutes: it only orders probes). */
    private static final int MAX_USES = (1 << 14) - 1;
    /** The kept data center's bits in {@link #meta}: its number + 1, 0 for none. */
    private static final int KEPT_SHIFT = 14;

    private static final int KEPT = 0x7FF << KEPT_SHIFT;
    /** The most paths kept in the object's own fields. */
    private static final int FEW = 2;
    /** The path count's bits in {@link #meta}. */
    private static final int COUNT = 0x3 << 25;

    private final long hi;
    private final long lo;
    /**
     * state << 30 | protocol code << 27 | path count ({@link Few} only) << 25 | kept data center + 1
     * << 14 | uses. The kept one lives here, not in a field of its own: a field would grow every
     * entry by 8 bytes (compact object headers leave no padding).
     */
    private final int meta;
    /** Epoch seconds, unsigned. */
    private final int lastUsed;
    /** Epoch seconds, unsigned, rounded up (a retry never comes early); 0 = none. */
    private final int retryAt;
    /** Epoch seconds of the newest path, unsigned: each path keeps its age before it. */
    private final int newest;

    private LdnsEntry(long hi, long lo, int meta, int lastUsed, int retryAt, int newest) {
        this.hi = hi;
        this.lo = lo;
        this.meta = meta;
        this.lastUsed = lastUsed;
        this.retryAt = retryAt;
        this.newest = newest;
    }

    /** An entry not yet in a table (as read from the store); the table gives it its address. */
    public static LdnsEntry of(Path[] paths, State state, ProbeProtocol protocol, long retryAt, long lastUsed) {
        return of(paths, -1, state, protocol, retryAt, lastUsed);
    }

    /** An entry of {@code paths} keeping the data center of {@code paths[keptPath]} (none when -1), as stored. */
    public static LdnsEntry of(
            Path[] paths, int keptPath, State state, ProbeProtocol protocol, long retryAt, long lastUsed) {
        Paths p = new Paths(paths.length);
        for (Path path : paths) {
            p.add(path);
        }
        int kept = keptPath < 0 ? NOT_KEPT : p.dataCenter(keptPath);
        return p.build(0, 0, meta(state, protocol, 0), seconds(lastUsed), retryAtSeconds(retryAt), kept);
    }

    public static LdnsEntry probing(long now) {
        return probing(now, 0, 0);
    }

    /** A new entry at the LDNS {@code hi:lo}: one object where {@code probing(now).at(hi, lo)} made two. */
    static LdnsEntry probing(long now, long hi, long lo) {
        return new Few(hi, lo, meta(State.PROBING, null, 1), seconds(now), 0, Paths.NONE);
    }

    /** No data center kept. */
    public static final int NOT_KEPT = -1;

    /**
     * The data center (its {@link #dataCenterNumber} number) this LDNS's answers stay with under the
     * RTT margin, or {@link #NOT_KEPT}: the lowest estimate until another is better by the margin, and
     * when a path is recorded with nothing kept (the first, a new data center's, or the kept one's
     * gone), the data center the LDNS {@link RttMargin#preference prefers} among the paths the best
     * is not clearly better than. It moves only when a path is recorded, from the paths alone, so
     * every instance of a pair, recording the same paths, keeps the same data center; a margin kept
     * per instance and moved by queries let the two disagree on a near tie, and a resolver asking
     * both flipped between them. The store keeps it across a restart.
     */
    public int keptDataCenter() {
        return ((meta & KEPT) >>> KEPT_SHIFT) - 1;
    }

    /** This entry keeping no data center (one read from the store when the margin is off). */
    public LdnsEntry keepingNone() {
        if (keptDataCenter() == NOT_KEPT) {
            return this;
        }
        Paths p = new Paths(pathCount()); // with() keeps the kept one: the paths again
        for (int i = 0; i < pathCount(); i++) {
            p.copy(this, i);
        }
        return p.build(hi, lo, meta, lastUsed, retryAt, NOT_KEPT);
    }

    /** The name of the {@link #keptDataCenter() kept} data center, or null when none is kept. */
    public String keptDataCenterName() {
        int kept = keptDataCenter();
        return kept == NOT_KEPT ? null : PathNames.SHARED.name(kept);
    }

    /** The metrics of path {@code i}: see {@link #metrics(Path)}. */
    abstract long metrics(int i);

    /** Path {@code i}'s age before {@link #newest} in seconds << 10 | its {@link PathNames} pair. */
    abstract int stamp(int i);

    public abstract int pathCount();

    /** This entry's paths, and the data center it keeps, with other fields. */
    abstract LdnsEntry with(long hi, long lo, int meta, int lastUsed, int retryAt);

    /** This entry for the LDNS {@code hi:lo} (the table keys entries by the address they hold). */
    LdnsEntry at(long hi, long lo) {
        return hi == this.hi && lo == this.lo ? this : with(hi, lo, meta, lastUsed, retryAt);
    }

    long hi() {
        return hi;
    }

    long lo() {
        return lo;
    }

    boolean isAt(long hi, long lo) {
        return this.hi == hi && this.lo == lo;
    }

    public State state() {
        return STATES[meta >>> 30];
    }

    public ProbeProtocol protocol() {
        int p = meta >>> 27 & 0x7;
        return p == 0 ? null : PROTOCOLS[p - 1];
    }

    public long retryAt() {
        return millis(retryAt);
    }

    public long lastUsed() {
        return millis(lastUsed);
    }

    /** How often it asked: the minutes (since this server started) in which it asked anything. */
    public int uses() {
        return meta & MAX_USES;
    }

    /** The index of {@code dataCenter}'s path, or -1: the query path reads it by index, allocating nothing. */
    public int pathIndex(String dataCenter) {
        for (int i = 0; i < pathCount(); i++) {
            if (dataCenter(i).equals(dataCenter)) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the path of the data center {@link PathNames} numbers {@code dataCenterNumber}, or -1. */
    int pathIndexByNumber(int dataCenterNumber) {
        for (int i = 0; i < pathCount(); i++) {
            if (dataCenterNumber(i) == dataCenterNumber) {
                return i;
            }
        }
        return -1;
    }

    public int rttMicros(int i) {
        return (int) (metrics(i) >>> 36);
    }

    public int completion(int i) {
        return (int) (metrics(i) >>> 10) & 0x3FFF;
    }

    public int hops(int i) {
        return (int) (metrics(i) >>> 3) & 0x7F;
    }

    /** How far path {@code i}'s rounds stray from its estimate, in microseconds; 0 = not known. */
    public int jitterMicros(int i) {
        return (int) (metrics(i) >>> 24 & 0xFFF) * Path.JITTER_UNIT_MICROS;
    }

    /** The number {@link PathNames} gives path {@code i}'s data center: stable while the server runs. */
    public int dataCenterNumber(int i) {
        return PathNames.SHARED.dataCenterOf(stamp(i) & 0x3FF);
    }

    /** Epoch milliseconds of path {@code i}'s measurement (whole seconds). */
    public long measuredAt(int i) {
        return measuredSeconds(i) * 1000;
    }

    private long measuredSeconds(int i) {
        return Integer.toUnsignedLong(newest) - (stamp(i) >>> 10);
    }

    /** Whether path {@code i} is fresh enough for a decision ({@link Path#freshAt}), without building it. */
    public boolean freshAt(int i, long nowMillis, long pathTtlMillis) {
        return Path.fresh(measuredAt(i), nowMillis, pathTtlMillis);
    }

    /** The data center of path {@code i} (an interned name: nothing is made). */
    public String dataCenter(int i) {
        return PathNames.SHARED.name(dataCenterNumber(i));
    }

    /** Path {@code i} as a value. */
    public Path path(int i) {
        int p = (int) metrics(i) & 0x7;
        return new Path(
                dataCenter(i),
                rttMicros(i),
                (short) completion(i),
                (byte) hops(i),
                p == 0 ? null : PROTOCOLS[p - 1],
                measuredAt(i),
                PathNames.SHARED.name(PathNames.SHARED.instanceOf(stamp(i) & 0x3FF)),
                jitterMicros(i));
    }

    public Path[] paths() {
        Path[] out = new Path[pathCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = path(i);
        }
        return out;
    }

    public List<Path> pathList() {
        return List.of(paths());
    }

    /** The path of {@code dataCenter}, or null. */
    public Path path(String dataCenter) {
        int i = pathIndex(dataCenter);
        return i < 0 ? null : path(i);
    }

    /** This entry with {@code path} replacing the path of its data center when it is newer, at the default margin. */
    public LdnsEntry withPath(Path path) {
        return withPath(path, RttMargin.DEFAULT);
    }

    /** This entry with {@code path} replacing the path of its data center when it is newer; the kept one under {@code margin}. */
    public LdnsEntry withPath(Path path, RttMargin margin) {
        int pair = PathNames.SHARED.pair(path.dataCenter(), path.measuredBy());
        int at = pathIndexByNumber(PathNames.SHARED.dataCenterOf(pair)); // no names compared
        if (at >= 0 && measuredSeconds(at) > seconds(path.measuredAt())) {
            return this; // older news
        }
        Paths p = new Paths(pathCount() + 1);
        for (int i = 0; i < pathCount(); i++) {
            if (i == at) {
                p.add(path, pair);
            } else {
                p.copy(this, i);
            }
        }
        if (at < 0) {
            p.add(path, pair);
        }
        return p.build(
                hi,
                lo,
                meta(State.PROBED, path.protocol(), uses()),
                lastUsed,
                0,
                p.kept(hi, lo, at < 0 ? NOT_KEPT : keptDataCenter(), margin));
    }

    /** Whether a path but {@code keepDataCenter}'s (its {@link PathNames} number) was measured before {@code cutoff}. */
    boolean hasPathMeasuredBefore(long cutoff, int keepDataCenter) {
        for (int i = 0; i < pathCount(); i++) {
            if (dataCenterNumber(i) != keepDataCenter && measuredAt(i) < cutoff) {
                return true;
            }
        }
        return false;
    }

    /** This entry without the paths {@link #hasPathMeasuredBefore} finds; itself when there are none. */
    LdnsEntry withoutPathsMeasuredBefore(long cutoff, int keepDataCenter) {
        Paths p = new Paths(pathCount());
        for (int i = 0; i < pathCount(); i++) {
            if (dataCenterNumber(i) == keepDataCenter || measuredAt(i) >= cutoff) {
                p.copy(this, i);
            }
        }
        return p.n == pathCount()
                ? this
                : p.build(hi, lo, meta, lastUsed, retryAt, p.has(keptDataCenter()) ? keptDataCenter() : NOT_KEPT);
    }

    public LdnsEntry unprobeable(long retryAtMillis) {
        return with(
                hi,
                lo,
                meta(pathCount() > 0 ? state() : State.UNPROBEABLE, protocol(), uses()),
                lastUsed,
                retryAtSeconds(retryAtMillis));
    }

    public LdnsEntry usedAt(long now) {
        return with(hi, lo, meta(state(), protocol(), Math.min(uses() + 1, MAX_USES)), seconds(now), retryAt);
    }

    private static int meta(State state, ProbeProtocol protocol, int uses) {
        return state.ordinal() << 30 | (protocol == null ? 0 : protocol.ordinal() + 1) << 27 | uses;
    }

    private static int seconds(long millis) {
        return (int) Math.clamp(Math.floorDiv(millis, 1000), 0, MAX_SECONDS);
    }

    private static int retryAtSeconds(long millis) {
        return (int) Math.clamp(Math.ceilDiv(millis, 1000), 0, MAX_SECONDS);
    }

    private static long millis(int seconds) {
        return Integer.toUnsignedLong(seconds) * 1000;
    }

    /** A path's metrics: RTT in microseconds (28 bits, up to 268 s) << 36 | jitter in tenths of a millisecond (12 bits, clamped) << 24 | completion (14 bits) << 10 | hops (7 bits) << 3 | protocol. */
    private static long metrics(Path p) {
        return (long) Math.clamp(p.rttMicros(), 0, Path.MAX_RTT_MICROS) << 36
                | (long) Math.clamp(p.jitterMicros() / Path.JITTER_UNIT_MICROS, 0, 0xFFF) << 24
                | (long) Math.clamp(p.completion(), 0, 0x3FFF) << 10
                | (long) Math.clamp(p.hops(), 0, 0x7F) << 3
                | (p.protocol() == null ? 0 : p.protocol().ordinal() + 1);
    }

    /** Paths gathered for a new entry, with their measurement in whole seconds. */
    private static final class Paths {
        /** No paths (nothing can be added: its capacity is 0). */
        static final Paths NONE = new Paths(0);

        final long[] metrics;
        final long[] seconds;
        final int[] pairs;
        int n;

        Paths(int capacity) {
            metrics = new long[capacity];
            seconds = new long[capacity];
            pairs = new int[capacity];
        }

        void add(Path p) {
            add(p, PathNames.SHARED.pair(p.dataCenter(), p.measuredBy()));
        }

        void add(Path p, int pair) {
            put(metrics(p), Integer.toUnsignedLong(seconds(p.measuredAt())), pair);
        }

        void copy(LdnsEntry from, int i) {
            put(from.metrics(i), from.measuredSeconds(i), from.stamp(i) & 0x3FF);
        }

        private void put(long m, long s, int pair) {
            metrics[n] = m;
            seconds[n] = s;
            pairs[n++] = pair;
        }

        /** The newest measurement, in seconds. */
        long newest() {
            long newest = 0;
            for (int i = 0; i < n; i++) {
                newest = Math.max(newest, seconds[i]);
            }
            return newest;
        }

        /** Path {@code i}'s age before {@code newest}, clamped. */
        int age(int i, long newest) {
            return (int) Math.min(newest - seconds[i], MAX_AGE);
        }

        /** The entry; {@code meta}'s path count is this one's. */
        LdnsEntry build(long hi, long lo, int meta, int lastUsed, int retryAt, int kept) {
            meta = meta & ~(COUNT | KEPT) | (kept + 1) << KEPT_SHIFT;
            return n <= FEW
                    ? new Few(hi, lo, meta | n << 25, lastUsed, retryAt, this)
                    : new Many(hi, lo, meta, lastUsed, retryAt, this);
        }

        private int dataCenter(int i) {
            return PathNames.SHARED.dataCenterOf(pairs[i]);
        }

        private long rtt(int i) {
            return metrics[i] >>> 36;
        }

        boolean has(int dataCenter) {
            for (int i = 0; i < n; i++) {
                if (dataCenter(i) == dataCenter) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The data center to keep for LDNS {@code hi:lo} ({@link #keptDataCenter()}), {@code
         * previous} kept before ({@link #NOT_KEPT} to choose afresh). The best is the lowest RTT, then the
         * higher completion, then the preference: the same on every instance whatever the paths' order.
         */
        int kept(long hi, long lo, int previous, RttMargin margin) {
            if (n == 0 || margin.off()) {
                return NOT_KEPT;
            }
            int best = 0;
            long bestScore = RttMargin.preference(hi, lo, PathNames.SHARED.name(dataCenter(0)));
            for (int i = 1; i < n; i++) {
                long score = RttMargin.preference(hi, lo, PathNames.SHARED.name(dataCenter(i)));
                long c = Long.compare(rtt(i), rtt(best));
                if (c == 0) {
                    c = Long.compare(metrics[best] >>> 10 & 0x3FFF, metrics[i] >>> 10 & 0x3FFF);
                }
                if (c < 0 || c == 0 && score > bestScore) {
                    best = i;
                    bestScore = score;
                }
            }
            for (int i = 0; i < n; i++) {
                if (dataCenter(i) == previous) {
                    return margin.clearlyBetter(rtt(best), rtt(i)) ? dataCenter(best) : previous;
                }
            }
            int chosen = best; // afresh: the preferred of those the best is not clearly better than
            long top = bestScore;
            for (int i = 0; i < n; i++) {
                if (!margin.clearlyBetter(rtt(best), rtt(i))) {
                    long score = RttMargin.preference(hi, lo, PathNames.SHARED.name(dataCenter(i)));
                    if (score > top) {
                        top = score;
                        chosen = i;
                    }
                }
            }
            return dataCenter(chosen);
        }
    }

    /** Up to two paths, in the object's own fields: an LDNS of the usual pair of links is one object. */
    static final class Few extends LdnsEntry {
        private final long metrics0;
        private final long metrics1;
        private final int stamp0;
        private final int stamp1;

        private Few(long hi, long lo, int meta, int lastUsed, int retryAt, Paths p) {
            super(hi, lo, meta, lastUsed, retryAt, (int) p.newest());
            long newest = p.newest();
            this.metrics0 = p.n > 0 ? p.metrics[0] : 0;
            this.stamp0 = p.n > 0 ? p.age(0, newest) << 10 | p.pairs[0] : 0;
            this.metrics1 = p.n > 1 ? p.metrics[1] : 0;
            this.stamp1 = p.n > 1 ? p.age(1, newest) << 10 | p.pairs[1] : 0;
        }

        private Few(Few paths, long hi, long lo, int meta, int lastUsed, int retryAt) {
            super(hi, lo, meta, lastUsed, retryAt, ((LdnsEntry) paths).newest);
            this.metrics0 = paths.metrics0;
            this.stamp0 = paths.stamp0;
            this.metrics1 = paths.metrics1;
            this.stamp1 = paths.stamp1;
        }

        @Override
        public int pathCount() {
            return super.meta >>> 25 & 0x3;
        }

        @Override
        long metrics(int i) {
            return i == 0 ? metrics0 : metrics1;
        }

        @Override
        int stamp(int i) {
            return i == 0 ? stamp0 : stamp1;
        }

        @Override
        LdnsEntry with(long hi, long lo, int meta, int lastUsed, int retryAt) {
            return new Few(
                    this, hi, lo, meta & ~(COUNT | KEPT) | super.meta & KEPT | pathCount() << 25, lastUsed, retryAt);
        }
    }

    /**
     * More than two paths: eleven bytes each in one array (the metrics, then the age in three
     * bytes), and the paths' {@link PathNames} pairs in an array shared by every entry with the
     * same data centers in the same order ({@link PairLists}): with twenty data centers almost
     * every LDNS has the same twenty.
     */
    static final class Many extends LdnsEntry {
        private static final int STRIDE = 11;
        private static final VarHandle LONG =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
        private final byte[] data;
        private final int[] pairs;

        private Many(long hi, long lo, int meta, int lastUsed, int retryAt, Paths p) {
            super(hi, lo, meta, lastUsed, retryAt, (int) p.newest());
            long newest = p.newest();
            data = new byte[STRIDE * p.n];
            for (int i = 0; i < p.n; i++) {
                LONG.set(data, STRIDE * i, p.metrics[i]);
                int age = p.age(i, newest);
                data[STRIDE * i + 8] = (byte) age;
                data[STRIDE * i + 9] = (byte) (age >>> 8);
                data[STRIDE * i + 10] = (byte) (age >>> 16);
            }
            pairs = PairLists.SHARED.intern(Arrays.copyOf(p.pairs, p.n));
        }

        private Many(Many paths, long hi, long lo, int meta, int lastUsed, int retryAt) {
            super(hi, lo, meta, lastUsed, retryAt, ((LdnsEntry) paths).newest);
            this.data = paths.data;
            this.pairs = paths.pairs;
        }

        @Override
        public int pathCount() {
            return pairs.length;
        }

        @Override
        long metrics(int i) {
            return (long) LONG.get(data, STRIDE * i);
        }

        @Override
        int stamp(int i) {
            // the int ending at the age's last byte: its low byte is the metrics' last
            return ((int) INT.get(data, STRIDE * i + 7) >>> 8) << 10 | pairs[i];
        }

        @Override
        LdnsEntry with(long hi, long lo, int meta, int lastUsed, int retryAt) {
            return new Many(this, hi, lo, meta & ~(COUNT | KEPT) | super.meta & KEPT, lastUsed, retryAt);
        }
    }

    /** Equal content (the address is the table's key, and a loose entry has none yet). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LdnsEntry e)
                || e.pathCount() != pathCount()
                || e.state() != state()
                || e.protocol() != protocol()
                || e.retryAt != retryAt
                || e.lastUsed != lastUsed) {
            return false;
        }
        for (int i = 0; i < pathCount(); i++) {
            if (e.metrics(i) != metrics(i)
                    || e.measuredSeconds(i) != measuredSeconds(i)
                    || (e.stamp(i) & 0x3FF) != (stamp(i) & 0x3FF)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = lastUsed;
        for (int i = 0; i < pathCount(); i++) {
            h = h * 31 + Long.hashCode(metrics(i));
        }
        return h;
    }

    @Override
    public String toString() {
        return "LdnsEntry" + Arrays.toString(paths()) + " " + state() + " " + protocol() + " retryAt=" + retryAt()
                + " lastUsed=" + lastUsed();
    }
}
