package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A 3DNS topology file: {@code topology { dc."CNC" 202.106.0.0/16 100 ... }}; a source may also be
 * region."NAME" (or isp, country, continent), negated with {@code !}.
 */
final class ThreeDnsFile {
    /** {@code TARGET SOURCE SCORE}: a data center, pool or server; a CIDR, region, ISP, country or continent. */
    private static final Pattern THREE_DNS_RECORD = Pattern.compile(
            "(dc|datacenter|pool|server|vs)\\.\"([^\"]+)\"\\s+(!?)\\s*((?:region|isp|country|continent)\\.\"[^\"]*\"|\\S+)\\s+(\\d+)");

    /** A source that names something: region."X", isp."X", country."X" or continent."X". */
    private static final Pattern NAMED_SOURCE = Pattern.compile("(?:region|isp|country|continent)\\.\"[^\"]*\"");

    static TopologySource parse(String file, String text) throws TopologyException {
        Problems problems = new Problems();
        List<TopologyRecord> records = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        Map<String, List<Region.Prefix>> cidrRegions = new LinkedHashMap<>();
        boolean open = false;
        boolean closed = false;
        int n = 0;
        for (String raw : (Iterable<String>) text.lines()::iterator) {
            n++;
            String line = TopologyFiles.uncommented(raw, "//");
            if (line.isEmpty()) {
                continue;
            }
            if (!open) {
                if (!line.matches("topology\\s*\\{")) {
                    problems.add(file, n, "expected 'topology {' to open the table");
                    break;
                }
                open = true;
                continue;
            }
            if (line.equals("}")) {
                closed = true;
                continue;
            }
            if (closed) {
                problems.add(file, n, "text after the closing '}'");
                continue;
            }
            Matcher m = THREE_DNS_RECORD.matcher(line);
            if (!m.matches()) {
                problems.add(
                        file,
                        n,
                        "expected: TARGET SOURCE SCORE, TARGET dc.\"NAME\", pool.\"NAME\" or server.\"NAME\", SOURCE a"
                                + " CIDR, region.\"NAME\", isp.\"NAME\", country.\"CC\" or continent.\"NAME\""
                                + " (for example dc.\"CNC\" 202.106.0.0/16 100)");
                continue;
            }
            boolean not = !m.group(3).isEmpty();
            String source = m.group(4);
            String regionName;
            int dot = source.indexOf(".\"");
            if (NAMED_SOURCE.matcher(source).matches()) {
                String kind = source.substring(0, dot);
                String name = source.substring(dot + 2, source.length() - 1);
                // region."X" names a loaded region; isp/country/continent are mapped to one when the table is built
                regionName = kind.equals("region") ? name : kind + ":" + name;
            } else if (not) { // a negated CIDR is no region of its own: only the addresses outside it match
                try {
                    regionName = Cidr.parse(source).toString();
                } catch (IllegalArgumentException e) {
                    problems.add(file, n, e.getMessage());
                    continue;
                }
            } else {
                try {
                    Cidr cidr = Cidr.parse(source);
                    regionName = cidr.toString();
                    cidrRegions
                            .computeIfAbsent(regionName, k -> new ArrayList<>())
                            .add(new Region.Prefix(cidr, file, n));
                } catch (IllegalArgumentException e) {
                    problems.add(file, n, e.getMessage());
                    continue;
                }
            }
            String target = switch (m.group(1)) {
                case "pool" -> TopologyRecord.POOL + m.group(2);
                case "server", "vs" -> TopologyRecord.SERVER + m.group(2);
                default -> m.group(2);
            };
            try {
                records.add(new TopologyRecord(
                        (not ? TopologyRecord.NOT : "") + regionName,
                        target,
                        Long.parseLong(m.group(5)),
                        file + ":" + n));
            } catch (IllegalArgumentException e) {
                problems.add(file, n, "score must be 0..4294967295");
            }
        }
        if (open && !closed) {
            problems.add(file, n, "missing the closing '}' of 'topology {'");
        }
        if (!open && n == 0) {
            problems.add(file, 0, "empty file");
        }
        problems.throwIfAny();
        cidrRegions.forEach((name, prefixes) -> regions.add(new Region(name, List.of(prefixes.getFirst()))));
        return new TopologySource(file, TopologySource.Format.THREE_DNS, regions, records);
    }

    private ThreeDnsFile() {}
}
