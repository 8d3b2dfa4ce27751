package dev.gslb.dns.rrl;

import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.security.SecureRandom;
import java.util.function.LongSupplier;

/**
 * Response-rate limiting for UDP answers (BIND's RRL, NSD's and Knot's rate-limit): each (source
 * network, response class) may receive {@code responses-per-second}; beyond that answers are
 * dropped, and every {@code slip}-th of them goes out truncated so a real resolver retries over
 * TCP, which a spoofed source cannot.
 *
 * <p>The state is a fixed table of longs, 4-way set associative: a flood from millions of sources
 * costs no memory, and a new source only takes the place of one that is not being limited. Each
 * slot holds a tag, the limited flag, a slip counter and a GCRA "theoretical arrival time": the
 * account is debited 1/rate s per response (dropped ones too, as BIND does) and an answer passes
 * when, with its debit, that time is not more than one second ahead of now (a burst of exactly
 * {@code responses-per-second}); debt is capped at {@code window}. One CAS per
 * answer, no lock, no allocation: hand-written because it runs on every UDP answer.
 */
public final class ResponseRateLimiter {
    /** What to do with one answer; {@link #STARTED} / {@link #ENDED} may be or-ed in. */
    public static final int PASS = 0;

    public static final int DROP = 1;
    public static final int SLIP = 2;
    public static final int ACTION = 3;
    /** This answer is the first limited one of its network and class: worth a log line. */
    public static final int STARTED = 4;
    /** The network and class was limited and is answered again. */
    public static final int ENDED = 8;

    /** The classes answers are counted in, BIND's: data per name and type; NODATA per name; NXDOMAIN per zone; referrals per cut; errors. */
    public enum Kind {
        ANSWER,
        NODATA,
        NXDOMAIN,
        REFERRAL,
        ERROR
    }

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long SEED = new SecureRandom().nextLong();
    private static final int UNIT_SHIFT = 10; // time in units of 1024 ns
    private static final long SECOND = 1_000_000_000L >> UNIT_SHIFT;
    private static final long TIME_MASK = (1L << 47) - 1;
    private static final long SLIP_SHIFT = 47;
    private static final long SLIP_MASK = 0xFL << SLIP_SHIFT;
    private static final long LIMITED = 1L << 51;
    private static final int TAG_SHIFT = 52;

    private final RateLimitSettings settings;
    private final long[] slots;
    private final int mask;
    private final long interval;
    private final long window;
    private final long ipv4Mask;
    private final long ipv6HiMask;
    private final long ipv6LoMask;
    private final LongSupplier nanoTime;
    private volatile long epoch;

    public ResponseRateLimiter(RateLimitSettings settings) {
        this(settings, System::nanoTime);
    }

    /** With the time it counts in: the system's monotonic clock in service, a fixed one in tests. */
    public ResponseRateLimiter(RateLimitSettings settings, LongSupplier nanoTime) {
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.epoch = nanoTime.getAsLong();
        int size = Integer.highestOneBit(settings.tableSize());
        this.slots = new long[settings.enabled() ? size : 0];
        this.mask = size - 1;
        this.interval = settings.enabled() ? Math.max(1, SECOND / settings.responsesPerSecond()) : 0;
        this.window = settings.window().toNanos() >> UNIT_SHIFT;
        this.ipv4Mask = 0xFFFF_FFFFL << (32 - settings.ipv4Prefix()) & 0xFFFF_FFFFL;
        int v6 = settings.ipv6Prefix();
        this.ipv6HiMask = v6 >= 64 ? -1L : -1L << (64 - v6);
        this.ipv6LoMask = v6 <= 64 ? 0 : v6 == 128 ? -1L : -1L << (128 - v6);
    }

    public RateLimitSettings settings() {
        return settings;
    }

    /** The class an answer is counted in: its kind, the name that identifies it (hash), and the type. */
    public static long responseClass(Kind kind, long nameHash, int type) {
        return kind == Kind.ERROR ? 0x5EED : mix(nameHash ^ ((long) kind.ordinal() << 16 | type) * 0x9E3779B97F4A7C15L);
    }

    /** Whether the client {@code hi:lo} (the 128-bit form, IPv4 mapped) is never limited (an exempt network). */
    public boolean exempt(long hi, long lo) {
        return !settings.enabled() || settings.exempt().contains(hi, lo);
    }

    /**
     * Counts one UDP answer of {@code responseClass} to {@code client} and says what to do with it:
     * {@link #PASS}, {@link #DROP} or {@link #SLIP}, with {@link #STARTED} or {@link #ENDED} on a change.
     * The caller has already checked {@link #exempt}.
     */
    public int check(long hi, long lo, long responseClass) {
        long key = mix(network(hi, lo) ^ responseClass);
        long tag = key >>> TAG_SHIFT;
        int set = (int) key & mask & ~3;
        long now = now();
        for (int attempt = 0; attempt < 8; attempt++) {
            int slot = -1;
            long old = 0;
            boolean known = false;
            int victim = set;
            long victimTat = Long.MAX_VALUE;
            for (int i = set; i < set + 4; i++) {
                long s = (long) SLOTS.getVolatile(slots, i);
                if (s != 0 && s >>> TAG_SHIFT == tag) {
                    slot = i;
                    old = s;
                    known = true;
                    break;
                }
                long tat = s == 0 ? 0 : s & TIME_MASK;
                if (tat < victimTat) { // an empty slot or the one least in debt (one at or behind now is as good as
                    // new)
                    victimTat = tat;
                    victim = i;
                }
            }
            if (!known) {
                slot = victim;
                old = (long) SLOTS.getVolatile(slots, slot);
            }
            long tat = known ? Math.max(old & TIME_MASK, now) : now;
            boolean limited = known && (old & LIMITED) != 0;
            int slipCount = known ? (int) ((old & SLIP_MASK) >>> SLIP_SHIFT) : 0;
            int verdict;
            if (tat + interval - now <= SECOND) { // this answer's debit keeps the debt within one second
                verdict = limited ? PASS | ENDED : PASS;
                limited = false;
                slipCount = 0;
            } else {
                verdict = limited ? 0 : STARTED;
                limited = true;
                int slip = settings.slip();
                slipCount = slip == 0 ? 0 : (slipCount + 1) % slip;
                verdict |= slip > 0 && slipCount == 0 ? SLIP : DROP;
            }
            long next = Math.min(tat + interval, now + window);
            long updated = tag << TAG_SHIFT | (limited ? LIMITED : 0) | (long) slipCount << SLIP_SHIFT | next;
            if (SLOTS.compareAndSet(slots, slot, old, updated)) {
                return verdict;
            }
        }
        return PASS; // heavy contention on one slot: answering is the safe side
    }

    /** The source network (address with host bits cleared), folded into one long. */
    private long network(long hi, long lo) {
        if (Address.ipv4(hi, lo)) {
            return (lo & ipv4Mask) ^ SEED; // the low 32 bits are the IPv4 address
        }
        return mix((hi & ipv6HiMask) ^ SEED) ^ (lo & ipv6LoMask);
    }

    /** The network the client {@code hi:lo} is counted in, as text (for log lines). */
    public String networkOf(long hi, long lo) {
        boolean v4 = Address.ipv4(hi, lo);
        return new Cidr(hi, lo, v4 ? settings.ipv4Prefix() : settings.ipv6Prefix(), v4)
                .network()
                .toString();
    }

    /** Now in table units; the table restarts (forgetting all debt) every 4 years of uptime, before the field overflows. */
    private long now() {
        long units = ((nanoTime.getAsLong() - epoch) >> UNIT_SHIFT) + SECOND;
        if (units > TIME_MASK - window - SECOND) {
            synchronized (this) {
                java.util.Arrays.fill(slots, 0);
                epoch = nanoTime.getAsLong();
            }
            return SECOND;
        }
        return units;
    }

    private static long mix(long h) {
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L; // SplitMix64's finaliser
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }
}
