package dev.gslb.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Sorted, disjoint, non-adjacent ranges of the shared 128-bit space of {@link Cidr} (IPv4 as
 * ::ffff:a.b.c.d), each bound as two longs: the arithmetic under {@link Ranges} and the
 * topology table's intervals. Immutable; build time only.
 */
final class Ranges {
    private static final long V4_FIRST = Cidr.V4_MAPPED_LO;
    private static final long V4_LAST = Cidr.V4_MAPPED_LO | 0xFFFF_FFFFL;

    static final Ranges EMPTY = new Ranges(new long[0]);
    /** The whole space. */
    static final Ranges FULL = new Ranges(new long[] {0, 0, -1, -1});
    /** The IPv4 addresses (::ffff:0.0.0.0/96). */
    static final Ranges V4 = new Ranges(new long[] {0, V4_FIRST, 0, V4_LAST});

    /** startHi, startLo, endHi, endLo of each range, in order; ends inclusive. */
    private final long[] r;

    private Ranges(long[] ranges) {
        this.r = ranges;
    }

    /** The addresses of one prefix (its whole range in the shared space). */
    static Ranges of(Cidr c) {
        return new Ranges(new long[] {c.firstHi(), c.firstLo(), c.lastHi(), c.lastLo()});
    }

    /** The addresses from {@code first} to {@code last}, both included ({@code first <= last}). */
    static Ranges range(Address first, Address last) {
        return new Ranges(new long[] {first.hi(), first.lo(), last.hi(), last.lo()});
    }

    /** The addresses of any of {@code cidrs}. */
    static Ranges of(Collection<Cidr> cidrs) {
        Builder b = new Builder(cidrs.size());
        cidrs.stream()
                .sorted(Comparator.naturalOrder())
                .forEach(c -> b.add(c.firstHi(), c.firstLo(), c.lastHi(), c.lastLo()));
        return b.build();
    }

    /** The set of ranges given in order, disjoint ({@code start[i]..end[i]}, 128-bit halves). */
    static Ranges ofRanges(long[] startHi, long[] startLo, long[] endHi, long[] endLo) {
        Builder b = new Builder(startHi.length);
        for (int i = 0; i < startHi.length; i++) {
            b.add(startHi[i], startLo[i], endHi[i], endLo[i]);
        }
        return b.build();
    }

    /** The addresses in this set or in {@code o}. */
    Ranges union(Ranges o) {
        Builder b = new Builder(rangeCount() + o.rangeCount());
        int i = 0;
        int j = 0;
        while (i < rangeCount() || j < o.rangeCount()) {
            boolean mine = j >= o.rangeCount()
                    || i < rangeCount() && compare(r[4 * i], r[4 * i + 1], o.r[4 * j], o.r[4 * j + 1]) <= 0;
            long[] from = mine ? r : o.r;
            int k = 4 * (mine ? i++ : j++);
            b.add(from[k], from[k + 1], from[k + 2], from[k + 3]);
        }
        return b.build();
    }

    /** The addresses in both this set and {@code o}. */
    Ranges intersect(Ranges o) {
        Builder b = new Builder(rangeCount() + o.rangeCount());
        int i = 0;
        int j = 0;
        while (i < rangeCount() && j < o.rangeCount()) {
            long[] a = r;
            long[] c = o.r;
            int x = 4 * i;
            int y = 4 * j;
            boolean laterStart = compare(a[x], a[x + 1], c[y], c[y + 1]) >= 0;
            long sh = laterStart ? a[x] : c[y];
            long sl = laterStart ? a[x + 1] : c[y + 1];
            boolean mineEndsFirst = compare(a[x + 2], a[x + 3], c[y + 2], c[y + 3]) <= 0;
            long eh = mineEndsFirst ? a[x + 2] : c[y + 2];
            long el = mineEndsFirst ? a[x + 3] : c[y + 3];
            if (compare(sh, sl, eh, el) <= 0) {
                b.add(sh, sl, eh, el);
            }
            if (mineEndsFirst) {
                i++;
            } else {
                j++;
            }
        }
        return b.build();
    }

    /** The addresses in this set and not in {@code o}. */
    Ranges subtract(Ranges o) {
        return intersect(o.negate());
    }

    /** Every address of either family that is not in this set. */
    Ranges negate() {
        Builder b = new Builder(rangeCount() + 1);
        long ch = 0;
        long cl = 0;
        for (int k = 0; k < r.length; k += 4) {
            if (compare(ch, cl, r[k], r[k + 1]) < 0) {
                b.add(ch, cl, r[k + 1] == 0 ? r[k] - 1 : r[k], r[k + 1] - 1);
            }
            if (r[k + 2] == -1 && r[k + 3] == -1) {
                return b.build();
            }
            cl = r[k + 3] + 1;
            ch = cl == 0 ? r[k + 2] + 1 : r[k + 2];
        }
        b.add(ch, cl, -1, -1);
        return b.build();
    }

    /** Whether the address {@code hi:lo} (the 128-bit form) is in this set. */
    boolean contains(long hi, long lo) {
        int low = 0;
        int high = rangeCount() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int k = 4 * mid;
            if (compare(hi, lo, r[k], r[k + 1]) < 0) {
                high = mid - 1;
            } else if (compare(hi, lo, r[k + 2], r[k + 3]) > 0) {
                low = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return r.length == 0;
    }

    /** Appends the fewest prefixes that hold exactly these ranges, of the family given. */
    void blocks(boolean ipv4, List<Cidr> out) {
        for (int k = 0; k < r.length; k += 4) {
            long sh = r[k];
            long sl = r[k + 1];
            long eh = r[k + 2];
            long el = r[k + 3];
            for (; ; ) {
                int bits =
                        sl != 0 ? Long.numberOfTrailingZeros(sl) : sh != 0 ? 64 + Long.numberOfTrailingZeros(sh) : 128;
                while (bits > 0 && compare(sh | maskHi(bits), sl | maskLo(bits), eh, el) > 0) {
                    bits--;
                }
                out.add(ipv4 ? new Cidr(sh, sl, 32 - bits, true) : new Cidr(sh, sl, 128 - bits, false));
                long bh = sh | maskHi(bits);
                long bl = sl | maskLo(bits);
                if (bh == eh && bl == el) {
                    break;
                }
                sl = bl + 1;
                sh = sl == 0 ? bh + 1 : bh;
            }
        }
    }

    /** The high half of a mask of the {@code bits} lowest bits. */
    private static long maskHi(int bits) {
        return bits <= 64 ? 0 : bits == 128 ? -1L : (1L << (bits - 64)) - 1;
    }

    private static long maskLo(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** How many ranges the set holds, for walking them in order with {@link #bound}. */
    int rangeCount() {
        return r.length / 4;
    }

    /** Range {@code i}'s start (part 0: high half, 1: low half) or end (2, 3). */
    long bound(int i, int part) {
        return r[4 * i + part];
    }

    /** Whether range {@code i} starts before the address {@code hi:lo}. */
    boolean startsBefore(int i, long hi, long lo) {
        return compare(r[4 * i], r[4 * i + 1], hi, lo) < 0;
    }

    /** Unsigned order of two 128-bit values given as halves. */
    static int compare(long ah, long al, long bh, long bl) {
        int c = Long.compareUnsigned(ah, bh);
        return c != 0 ? c : Long.compareUnsigned(al, bl);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ranges s && Arrays.equals(r, s.r);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(r);
    }

    @Override
    public String toString() {
        List<Cidr> out = new ArrayList<>();
        blocks(false, out);
        return out.toString();
    }

    /** Ranges added in order of their starts; overlapping and adjacent ones are joined. */
    private static final class Builder {
        private long[] a;
        private int n;

        Builder(int capacity) {
            a = new long[4 * Math.max(capacity, 1)];
        }

        void add(long sh, long sl, long eh, long el) {
            if (n > 0) {
                int k = 4 * (n - 1);
                boolean lastIsTop = a[k + 2] == -1 && a[k + 3] == -1;
                long nl = a[k + 3] + 1;
                long nh = nl == 0 ? a[k + 2] + 1 : a[k + 2];
                if (lastIsTop || compare(sh, sl, nh, nl) <= 0) { // overlaps or touches the last range
                    if (compare(eh, el, a[k + 2], a[k + 3]) > 0) {
                        a[k + 2] = eh;
                        a[k + 3] = el;
                    }
                    return;
                }
            }
            if (4 * n == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[4 * n] = sh;
            a[4 * n + 1] = sl;
            a[4 * n + 2] = eh;
            a[4 * n + 3] = el;
            n++;
        }

        Ranges build() {
            return new Ranges(Arrays.copyOf(a, 4 * n));
        }
    }
}
