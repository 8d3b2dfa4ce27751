package dev.gslb.topology;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A fixed set of prefixes (probe exclusions, rate-limit exemptions) asked "is this address in
 * it?" on the query path: the same flattened table as topology, so a lookup allocates nothing.
 */
public final class CidrSet {
    private final TopologyTable table;
    private final List<Cidr> cidrs;

    private CidrSet(List<Cidr> cidrs, TopologyTable table) {
        this.cidrs = cidrs;
        this.table = table;
    }

    /** The set of {@code cidrs}; {@code what} names them in the (unexpected) error of a bad build. */
    public static CidrSet of(List<Cidr> cidrs, String what) {
        List<Region.Prefix> prefixes = new ArrayList<>();
        for (Cidr c : cidrs) {
            prefixes.add(new Region.Prefix(c.network(), what, 0));
        }
        try {
            TopologyTable t = TopologyTable.build(List.of(new Region(what, prefixes)), List.of(), Set.of());
            return new CidrSet(List.copyOf(cidrs), t);
        } catch (TopologyException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
    }

    /** Parses each text with {@link Cidr#parse}. */
    public static CidrSet parse(List<String> cidrs, String what) {
        return of(cidrs.stream().map(Cidr::parse).toList(), what);
    }

    public boolean contains(InetAddress address) {
        return table.lookup(address) != null;
    }

    public boolean contains(Address address) {
        return contains(address.hi(), address.lo());
    }

    /** Whether the address {@code hi:lo} (the 128-bit form, IPv4 mapped) is in the set; allocates nothing. */
    public boolean contains(long hi, long lo) {
        return table.lookup(hi, lo) != null;
    }

    public List<Cidr> cidrs() {
        return cidrs;
    }

    @Override
    public String toString() {
        return cidrs.toString();
    }
}
