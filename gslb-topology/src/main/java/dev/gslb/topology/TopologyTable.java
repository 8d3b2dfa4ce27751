package dev.gslb.topology;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;

/**
 * The topology score table: CIDR -> region -> data-center scores, immutable. All prefixes of all
 * regions are flattened into sorted, disjoint address intervals, each pointing at the longest
 * prefix that covers it, so a lookup is one binary search over primitive arrays and returns a
 * {@link TopologyMatch} built in advance: no allocation, no lock. {@link TopologyBuilder} builds it.
 */
public final class TopologyTable {
    // sorted, disjoint intervals [start, end] of the shared 128-bit space, and what each matches
    final long[] startHi;
    final long[] startLo;
    final long[] endHi;
    final long[] endLo;
    final TopologyMatch[] matches;
    private final List<Region> regions;
    private final List<TopologyRecord> records;
    private final List<String> warnings;

    TopologyTable(
            long[] startHi,
            long[] startLo,
            long[] endHi,
            long[] endLo,
            TopologyMatch[] matches,
            List<Region> regions,
            List<TopologyRecord> records,
            List<String> warnings) {
        this.startHi = startHi;
        this.startLo = startLo;
        this.endHi = endHi;
        this.endLo = endLo;
        this.matches = matches;
        this.regions = List.copyOf(regions);
        this.records = List.copyOf(records);
        this.warnings = List.copyOf(warnings);
    }

    public static TopologyTable empty() {
        return new TopologyTable(
                new long[0],
                new long[0],
                new long[0],
                new long[0],
                new TopologyMatch[0],
                List.of(),
                List.of(),
                List.of());
    }

    /**
     * Builds a table. Errors (a record naming an unknown data center or region) throw; duplicate
     * and overlapping prefixes are warnings: the first loaded region keeps an exact duplicate, and
     * the longest match decides between nested prefixes.
     */
    public static TopologyTable build(List<Region> loaded, List<TopologyRecord> records, Set<String> dataCenters)
            throws TopologyException {
        return TopologyBuilder.build(loaded, records, dataCenters);
    }

    /** The longest-prefix match for an address, or null when no loaded prefix covers it. */
    public TopologyMatch lookup(InetAddress address) {
        return lookup(Cidr.hiOf(address), Cidr.loOf(address));
    }

    /** IPv4 lookup without allocation; {@code address} in network order as an int. */
    public TopologyMatch lookupV4(int address) {
        return lookup(0, Cidr.V4_MAPPED_LO | (address & 0xFFFF_FFFFL));
    }

    /** IPv6 lookup without allocation; the address as two 64-bit halves. */
    public TopologyMatch lookupV6(long hi, long lo) {
        return lookup(hi, lo);
    }

    /** Lookup of a 128-bit address (IPv4 as ::ffff:a.b.c.d) without allocation. */
    public TopologyMatch lookup(long hi, long lo) {
        int low = 0;
        int high = startHi.length - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (Ranges.compare(startHi[mid], startLo[mid], hi, lo) <= 0) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        if (found < 0 || Ranges.compare(hi, lo, endHi[found], endLo[found]) > 0) {
            return null;
        }
        return matches[found];
    }

    public List<Region> regions() {
        return regions;
    }

    public List<TopologyRecord> records() {
        return records;
    }

    /** Duplicates and overlaps found while building; reported, not fatal. */
    public List<String> warnings() {
        return warnings;
    }

    public int prefixCount() {
        return regions.stream().mapToInt(r -> r.prefixes().size()).sum();
    }
}
