package dev.gslb.probe.proximity;

import dev.gslb.probe.ProbeProtocol;
import java.util.Arrays;
import java.util.List;

/**
 * One LDNS in the proximity table: its address, a path per data center, the probe state, and
 * when it was last seen asking. Immutable: a change builds a new entry and the table swaps it in,
 * so the query path always reads a whole one.
 *
 * <p>Millions of these are held, so an entry is one object and one {@code long[]}: each path is
 * packed into two longs (metrics; measured-at with the numbers of its data-center and instance
 * names, {@link PathNames}) instead of a {@link Path} object with its own header and references.
 * The query path reads a path's fields by index without building a {@link Path}; listings, the
 * store and sync get {@link Path} values from {@link #paths()}.
 */
public final class LdnsEntry {
    public enum State {
        PROBING,
        PROBED,
        UNPROBEABLE
    }

    private static final State[] STATES = State.values();
    private static final ProbeProtocol[] PROTOCOLS = ProbeProtocol.values();
    private static final long[] NONE = {};
    /** Measured-at is kept in 44 bits of milliseconds: up to the year 2527. */
    private static final long MAX_TIME = (1L << 44) - 1;

    private final long hi;
    private final long lo;
    /** Longs per path. */
    private static final int STRIDE = 2;
    /**
     * Per path: [rtt << 36 | jitter/100 << 24 | completion << 10 | hops << 3 | protocol, measuredAt << 20 |
     * dataCenter << 10 | by]: RTT up to 268 s in microseconds, jitter up to 409.5 ms in tenths of a
     * millisecond (clamped), completion up to 10000, hops up to 127, the protocol's code.
     */
    private final long[] paths;

    private final byte state;
    private final byte protocol;
    private final long retryAt;
    private final long lastUsed;
    /** Minutes in which this LDNS asked (touches are a minute apart at most); in memory only, saturating. */
    private final int uses;

    private LdnsEntry(
            long hi,
            long lo,
            long[] paths,
            State state,
            ProbeProtocol protocol,
            long retryAt,
            long lastUsed,
            int uses) {
        this.hi = hi;
        this.lo = lo;
        this.paths = paths;
        this.state = (byte) state.ordinal();
        this.protocol = code(protocol);
        this.retryAt = retryAt;
        this.lastUsed = lastUsed;
        this.uses = uses;
    }

    /** An entry not yet in a table (as read from the store); the table gives it its address. */
    public LdnsEntry(Path[] paths, State state, ProbeProtocol protocol, long retryAt, long lastUsed) {
        this(0, 0, pack(paths), state, protocol, retryAt, lastUsed, 0);
    }

    public static LdnsEntry probing(long now) {
        return new LdnsEntry(0, 0, NONE, State.PROBING, null, 0, now, 1);
    }

    /** This entry for the LDNS {@code hi:lo} (the table keys entries by the address they hold). */
    LdnsEntry at(long hi, long lo) {
        return hi == this.hi && lo == this.lo
                ? this
                : new LdnsEntry(hi, lo, paths, state(), protocol(), retryAt, lastUsed, uses);
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
        return STATES[state];
    }

    public ProbeProtocol protocol() {
        return protocol == 0 ? null : PROTOCOLS[protocol - 1];
    }

    public long retryAt() {
        return retryAt;
    }

    public long lastUsed() {
        return lastUsed;
    }

    /** How often it asked: the minutes (since this server started) in which it asked anything. */
    public int uses() {
        return uses;
    }

    public int pathCount() {
        return paths.length / STRIDE;
    }

    /** The index of {@code dataCenter}'s path, or -1: the query path reads it by index, allocating nothing. */
    public int pathIndex(String dataCenter) {
        for (int i = 0; i < paths.length / STRIDE; i++) {
            if (PathNames.SHARED.name(dataCenterNumber(i)).equals(dataCenter)) {
                return i;
            }
        }
        return -1;
    }

    public int rttMicros(int i) {
        return (int) (paths[STRIDE * i] >>> 36);
    }

    public int completion(int i) {
        return (int) (paths[STRIDE * i] >>> 10) & 0x3FFF;
    }

    public int hops(int i) {
        return (int) (paths[STRIDE * i] >>> 3) & 0x7F;
    }

    /** How far path {@code i}'s rounds stray from its estimate, in microseconds; 0 = not known. */
    public int jitterMicros(int i) {
        return (int) (paths[STRIDE * i] >>> 24 & 0xFFF) * Path.JITTER_UNIT_MICROS;
    }

    /** The number {@link PathNames} gives path {@code i}'s data center: stable while the server runs. */
    public int dataCenterNumber(int i) {
        return (int) (paths[STRIDE * i + 1] >>> 10) & 0x3FF;
    }

    public long measuredAt(int i) {
        return paths[STRIDE * i + 1] >>> 20;
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
        long m = paths[STRIDE * i];
        long w = paths[STRIDE * i + 1];
        int p = (int) m & 0x7;
        return new Path(
                PathNames.SHARED.name(dataCenterNumber(i)),
                rttMicros(i),
                (short) completion(i),
                (byte) hops(i),
                p == 0 ? null : PROTOCOLS[p - 1],
                measuredAt(i),
                PathNames.SHARED.name((int) w & 0x3FF),
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

    /** This entry with {@code path} replacing the path of its data center when it is newer. */
    public LdnsEntry withPath(Path path) {
        int i = pathIndex(path.dataCenter());
        long[] next;
        if (i >= 0) {
            if (measuredAt(i) > clampTime(path.measuredAt())) {
                return this; // older news
            }
            next = paths.clone();
        } else {
            next = Arrays.copyOf(paths, paths.length + STRIDE);
            i = paths.length / STRIDE;
        }
        pack(path, next, i);
        return new LdnsEntry(hi, lo, next, State.PROBED, path.protocol(), 0, lastUsed, uses);
    }

    /** This entry without the paths {@code drop} selects; itself when there are none. */
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
        long[] keep = new long[paths.length];
        int n = 0;
        for (int i = 0; i < pathCount(); i++) {
            if (dataCenterNumber(i) == keepDataCenter || measuredAt(i) >= cutoff) {
                System.arraycopy(paths, STRIDE * i, keep, n, STRIDE);
                n += STRIDE;
            }
        }
        return n == paths.length
                ? this
                : new LdnsEntry(
                        hi, lo, n == 0 ? NONE : Arrays.copyOf(keep, n), state(), protocol(), retryAt, lastUsed, uses);
    }

    public LdnsEntry unprobeable(long retryAtMillis) {
        return new LdnsEntry(
                hi,
                lo,
                paths,
                paths.length > 0 ? state() : State.UNPROBEABLE,
                protocol(),
                retryAtMillis,
                lastUsed,
                uses);
    }

    public LdnsEntry usedAt(long now) {
        return new LdnsEntry(
                hi, lo, paths, state(), protocol(), retryAt, now, uses == Integer.MAX_VALUE ? uses : uses + 1);
    }

    private static byte code(ProbeProtocol p) {
        return (byte) (p == null ? 0 : p.ordinal() + 1);
    }

    private static long clampTime(long millis) {
        return Math.clamp(millis, 0, MAX_TIME);
    }

    private static long[] pack(Path[] paths) {
        if (paths.length == 0) {
            return NONE;
        }
        long[] out = new long[STRIDE * paths.length];
        for (int i = 0; i < paths.length; i++) {
            pack(paths[i], out, i);
        }
        return out;
    }

    private static void pack(Path p, long[] out, int i) {
        out[STRIDE * i] = (long) Math.clamp(p.rttMicros(), 0, Path.MAX_RTT_MICROS) << 36
                | (long) Math.clamp(p.jitterMicros() / Path.JITTER_UNIT_MICROS, 0, 0xFFF) << 24
                | (long) Math.clamp(p.completion(), 0, 0x3FFF) << 10
                | (long) Math.clamp(p.hops(), 0, 0x7F) << 3
                | code(p.protocol());
        out[STRIDE * i + 1] = clampTime(p.measuredAt()) << 20
                | (long) PathNames.SHARED.number(p.dataCenter()) << 10
                | PathNames.SHARED.number(p.measuredBy());
    }

    /** Equal content (the address is the table's key, and a loose entry has none yet). */
    @Override
    public boolean equals(Object o) {
        return o instanceof LdnsEntry e
                && Arrays.equals(e.paths, paths)
                && e.state == state
                && e.protocol == protocol
                && e.retryAt == retryAt
                && e.lastUsed == lastUsed;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(lastUsed) * 31 + Arrays.hashCode(paths);
    }

    @Override
    public String toString() {
        return "LdnsEntry" + Arrays.toString(paths()) + " " + state() + " " + protocol() + " retryAt=" + retryAt
                + " lastUsed=" + lastUsed;
    }
}
