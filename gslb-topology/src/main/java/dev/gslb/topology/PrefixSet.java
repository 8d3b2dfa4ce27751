package dev.gslb.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * A set of addresses of both families, for the arithmetic of prefixes: union, intersection,
 * subtraction and negation, and back to the fewest prefixes. Each family is kept apart, as an
 * address-match list and the ipaddress library see them: the IPv4 part within IPv4's space, the
 * IPv6 part as its prefixes are written (::/3 is all of ::/3, the IPv4-mapped addresses in it
 * too). Both are ranges of the shared 128-bit space of {@link Cidr}, each bound as two longs, so
 * both families take the same code. Immutable, and built when a table is built, never on the
 * query path.
 */
public final class PrefixSet {
    public static final PrefixSet EMPTY = new PrefixSet(Ranges.EMPTY, Ranges.EMPTY);
    /** Every IPv4 address ({@code 0.0.0.0/0}). */
    public static final PrefixSet IPV4 = new PrefixSet(Ranges.V4, Ranges.EMPTY);
    /** Every IPv6 address ({@code ::/0}). */
    public static final PrefixSet IPV6 = new PrefixSet(Ranges.EMPTY, Ranges.FULL);
    /** Every address of both families. */
    public static final PrefixSet ALL = new PrefixSet(Ranges.V4, Ranges.FULL);

    private final Ranges v4;
    private final Ranges v6;

    private PrefixSet(Ranges v4, Ranges v6) {
        this.v4 = v4;
        this.v6 = v6;
    }

    /** The addresses of one prefix. */
    public static PrefixSet of(Cidr c) {
        return c.ipv4() ? new PrefixSet(Ranges.of(c), Ranges.EMPTY) : new PrefixSet(Ranges.EMPTY, Ranges.of(c));
    }

    /** The addresses of any of {@code cidrs}. */
    public static PrefixSet of(Collection<Cidr> cidrs) {
        return new PrefixSet(
                Ranges.of(cidrs.stream().filter(Cidr::ipv4).toList()),
                Ranges.of(cidrs.stream().filter(c -> !c.ipv4()).toList()));
    }

    /** The addresses from {@code first} to {@code last}, both included, of {@code first}'s family. */
    public static PrefixSet range(Address first, Address last) {
        Ranges r = Ranges.range(first, last);
        return first.ipv4() ? new PrefixSet(r, Ranges.EMPTY) : new PrefixSet(Ranges.EMPTY, r);
    }

    /** The addresses in any of {@code sets}. */
    public static PrefixSet union(Stream<PrefixSet> sets) {
        return sets.reduce(EMPTY, PrefixSet::union);
    }

    /** The addresses in this set or in {@code o}. */
    public PrefixSet union(PrefixSet o) {
        return new PrefixSet(v4.union(o.v4), v6.union(o.v6));
    }

    /** The addresses in both this set and {@code o}. */
    public PrefixSet intersect(PrefixSet o) {
        return new PrefixSet(v4.intersect(o.v4), v6.intersect(o.v6));
    }

    /** The addresses in this set and not in {@code o}. */
    public PrefixSet subtract(PrefixSet o) {
        return new PrefixSet(v4.subtract(o.v4), v6.subtract(o.v6));
    }

    /** Every address of either family that is not in this set. */
    public PrefixSet negate() {
        return new PrefixSet(Ranges.V4.subtract(v4), v6.negate());
    }

    /**
     * Whether the address {@code hi:lo} (the 128-bit form) is in this set as the topology table
     * sees it: an IPv4 address is also in an IPv6 prefix that spans its place in the shared space.
     */
    public boolean contains(long hi, long lo) {
        return v4.contains(hi, lo) || v6.contains(hi, lo);
    }

    public boolean isEmpty() {
        return v4.isEmpty() && v6.isEmpty();
    }

    /** The fewest prefixes that hold exactly this set: IPv4 first, then IPv6, each in address order. */
    public List<Cidr> prefixes() {
        List<Cidr> out = new ArrayList<>();
        v4.blocks(true, out);
        v6.blocks(false, out);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrefixSet s && v4.equals(s.v4) && v6.equals(s.v6);
    }

    @Override
    public int hashCode() {
        return 31 * v4.hashCode() + v6.hashCode();
    }

    @Override
    public String toString() {
        return prefixes().toString();
    }
}
