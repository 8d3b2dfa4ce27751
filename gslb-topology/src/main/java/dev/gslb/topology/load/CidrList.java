package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import java.util.ArrayList;
import java.util.List;

/** One CIDR per line (the ISP lists), {@code #} comments: one region of the file's prefixes. */
final class CidrList {
    static TopologySource parse(String file, String text, String region) throws TopologyException {
        Problems problems = new Problems();
        List<Region.Prefix> prefixes = new ArrayList<>();
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            String line = TopologyFiles.uncommented(raw, "#");
            if (line.isEmpty()) {
                continue;
            }
            try {
                prefixes.add(new Region.Prefix(Cidr.parse(line), file, n));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, e.getMessage());
            }
        }
        if (prefixes.isEmpty() && problems.count() > 0) { // the wrong file (a zone, a config): say so once
            throw new TopologyException(List.of(file + ": not a CIDR list: none of its " + problems.count()
                    + " non-blank lines is a CIDR (first: " + problems.first() + ")"));
        }
        if (prefixes.isEmpty() && n == 0) {
            problems.add(file, 0, "empty file; expected one CIDR per line");
        } else if (prefixes.isEmpty()) {
            problems.add(file, 0, "no CIDR in the file (only comments or blank lines)");
        }
        problems.throwIfAny();
        return new TopologySource(
                file, TopologySource.Format.CIDR_LIST, List.of(new Region(region, prefixes)), List.of());
    }

    private CidrList() {}
}
