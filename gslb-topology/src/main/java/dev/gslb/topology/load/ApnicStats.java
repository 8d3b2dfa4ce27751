package dev.gslb.topology.load;

import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.PrefixSet;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** APNIC delegated-stats lines ({@code registry|cc|type|start|value|date|status}). */
final class ApnicStats {
    static final Pattern LINE = Pattern.compile("^[a-z]+\\|[A-Z]{2}\\|(ipv4|ipv6|asn)\\|.*");

    /**
     * APNIC delegated stats: {@code registry|cc|type|start|value|date|status}. IPv4 value is an
     * address count (may need several CIDRs), IPv6 value a prefix length. Header, summary, asn and
     * unallocated lines are skipped. The region is {@code region} if given, else the country code.
     */
    static TopologySource parse(String file, String text, String region) throws TopologyException {
        Problems problems = new Problems();
        Map<String, List<Region.Prefix>> byRegion = new LinkedHashMap<>();
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (f.length < 6) {
                problems.add(file, n, "expected registry|cc|type|start|value|date|status");
                continue;
            }
            if (f[0].matches("\\d+(\\.\\d+)?") || f[1].equals("*") || f[5].equals("summary") || f[2].equals("asn")) {
                continue; // version header, summary or AS-number line
            }
            if (f.length >= 7 && !(f[6].equals("allocated") || f[6].equals("assigned"))) {
                continue; // available / reserved space belongs to nobody yet
            }
            String name = region != null ? region : f[1];
            try {
                List<Cidr> cidrs = switch (f[2]) {
                    case "ipv4" -> rangeToCidrs(f[3], Long.parseLong(f[4]));
                    case "ipv6" -> List.of(Cidr.parse(f[3] + "/" + Integer.parseInt(f[4])));
                    default ->
                        throw new IllegalArgumentException("unknown type '" + f[2] + "'; expected ipv4, ipv6 or asn");
                };
                int line0 = n;
                cidrs.forEach(c ->
                        byRegion.computeIfAbsent(name, k -> new ArrayList<>()).add(new Region.Prefix(c, file, line0)));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, e.getMessage());
            }
        }
        if (byRegion.isEmpty()) {
            problems.add(file, 0, "no allocated ipv4 or ipv6 lines");
        }
        problems.throwIfAny();
        List<Region> regions = new ArrayList<>();
        byRegion.forEach((name, prefixes) -> regions.add(new Region(name, prefixes)));
        return new TopologySource(file, TopologySource.Format.APNIC, regions, List.of());
    }

    /** The fewest CIDRs covering {@code count} addresses from {@code start} (counts need not be powers of two). */
    static List<Cidr> rangeToCidrs(String start, long count) {
        if (count <= 0 || count > (1L << 32)) {
            throw new IllegalArgumentException("address count must be 1..4294967296, not " + count);
        }
        InetAddress ip;
        try {
            ip = InetAddress.ofLiteral(start);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + start + "' is not an IPv4 address");
        }
        if (!(ip instanceof java.net.Inet4Address)) {
            throw new IllegalArgumentException("'" + start + "' is not an IPv4 address");
        }
        Address from = Address.of(ip);
        long first = from.lo() & 0xFFFF_FFFFL;
        long last = first + count - 1;
        if (last >= (1L << 32)) {
            throw new IllegalArgumentException(start + " + " + count + " runs past 255.255.255.255");
        }
        return PrefixSet.range(from, new Address(from.hi(), from.lo() + count - 1)).prefixes().stream()
                .map(c -> Cidr.parse(c.toString())) // refused as any prefix is (0.0.0.0/0)
                .toList();
    }

    private ApnicStats() {}
}
