package dev.gslb.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What replacing one topology table by another changes, as an operator checks it before (a dry
 * run) or after a load: the prefixes added, moved to other regions and removed, the regions and
 * records involved, and how many of the LDNS the proximity table knows would be placed otherwise
 * (another region or another best data center). Counts are whole; examples are the first few in
 * address order, so a list of a million prefixes gives a short answer.
 *
 * @param added       prefixes only in the new table
 * @param changed     prefixes in both whose region (or regions, for a duplicate) differs
 * @param removed     prefixes only in the old table
 * @param prefixes    up to {@code examples} of each kind
 * @param regions     every region whose prefixes changed, with its prefix count before and after
 * @param recordsAdded   records only in the new table
 * @param recordsRemoved records only in the old table
 * @param records     up to {@code examples} records added ("+ ...") and removed ("- ...")
 * @param ldnsKnown   the LDNS looked up in both tables
 * @param ldnsMoved   those placed otherwise by the new table
 * @param ldns        up to {@code examples} of them
 */
public record TopologyChange(
        int added,
        int changed,
        int removed,
        List<PrefixChange> prefixes,
        List<RegionChange> regions,
        int recordsAdded,
        int recordsRemoved,
        List<String> records,
        long ldnsKnown,
        long ldnsMoved,
        List<LdnsMove> ldns) {
    /** How many examples of each kind an answer shows unless told otherwise. */
    public static final int EXAMPLES = 10;

    /** {@code before} null: added; {@code after} null: removed; regions joined by ',' for a duplicate. */
    public record PrefixChange(String prefix, String before, String after) {}

    public record RegionChange(String name, int before, int after) {}

    /** An LDNS and where each table places it: region and best data center (null: no match, no record). */
    public record LdnsMove(String ip, String regionBefore, String bestBefore, String regionAfter, String bestAfter) {}

    public TopologyChange {
        prefixes = List.copyOf(prefixes);
        regions = List.copyOf(regions);
        records = List.copyOf(records);
        ldns = List.copyOf(ldns);
    }

    /** True when the tables place every prefix and every known LDNS alike and have the same records. */
    public boolean none() {
        return added + changed + removed + recordsAdded + recordsRemoved == 0 && ldnsMoved == 0;
    }

    /**
     * Compares {@code before} with {@code after}, looking up each of {@code ldns} (the known
     * resolvers) in both; at most {@code examples} examples of each kind.
     */
    public static TopologyChange between(
            TopologyTable before, TopologyTable after, Iterable<Address> ldns, int examples) {
        Map<Cidr, Set<String>> old = regionsByPrefix(before);
        Map<Cidr, Set<String>> now = regionsByPrefix(after);
        TreeSet<Cidr> all = new TreeSet<>(old.keySet());
        all.addAll(now.keySet());
        int added = 0;
        int changed = 0;
        int removed = 0;
        List<PrefixChange> shown = new ArrayList<>();
        int[] shownOf = new int[3];
        Set<String> touched = new HashSet<>();
        for (Cidr c : all) {
            Set<String> b = old.get(c);
            Set<String> a = now.get(c);
            int kind;
            if (b == null) {
                added++;
                kind = 0;
            } else if (a == null) {
                removed++;
                kind = 2;
            } else if (!b.equals(a)) {
                changed++;
                kind = 1;
            } else {
                continue;
            }
            if (b != null) {
                touched.addAll(b);
            }
            if (a != null) {
                touched.addAll(a);
            }
            if (shownOf[kind]++ < examples) {
                shown.add(new PrefixChange(c.toString(), joined(b), joined(a)));
            }
        }
        List<String> records = new ArrayList<>();
        int[] recordCounts = recordChanges(before, after, examples, records);
        long[] moved = new long[2];
        List<LdnsMove> moves = new ArrayList<>();
        for (Address a : ldns) {
            moved[0]++;
            TopologyMatch mb = before.lookup(a.hi(), a.lo());
            TopologyMatch ma = after.lookup(a.hi(), a.lo());
            String rb = mb == null ? null : mb.region();
            String ra = ma == null ? null : ma.region();
            String db = mb == null ? null : mb.bestDataCenter();
            String da = ma == null ? null : ma.bestDataCenter();
            if (!Objects.equals(rb, ra) || !Objects.equals(db, da)) {
                if (moved[1]++ < examples) {
                    moves.add(new LdnsMove(a.toString(), rb, db, ra, da));
                }
            }
        }
        return new TopologyChange(
                added,
                changed,
                removed,
                shown,
                regionChanges(before, after, touched),
                recordCounts[0],
                recordCounts[1],
                records,
                moved[0],
                moved[1],
                moves);
    }

    /** Each prefix of the table and the regions holding it (more than one for a duplicate). */
    private static Map<Cidr, Set<String>> regionsByPrefix(TopologyTable t) {
        Map<Cidr, Set<String>> by = new HashMap<>();
        for (Region r : t.regions()) {
            for (Region.Prefix p : r.prefixes()) {
                by.computeIfAbsent(p.cidr(), k -> new TreeSet<>()).add(r.name());
            }
        }
        return by;
    }

    private static String joined(Set<String> regions) {
        return regions == null ? null : String.join(",", regions);
    }

    /** The regions whose prefixes changed (or whose count did), by name. */
    private static List<RegionChange> regionChanges(TopologyTable before, TopologyTable after, Set<String> touched) {
        Map<String, Integer> b = counts(before);
        Map<String, Integer> a = counts(after);
        TreeMap<String, RegionChange> out = new TreeMap<>();
        Set<String> names = new TreeSet<>(b.keySet());
        names.addAll(a.keySet());
        for (String n : names) {
            int nb = b.getOrDefault(n, 0);
            int na = a.getOrDefault(n, 0);
            if (nb != na || touched.contains(n)) {
                out.put(n, new RegionChange(n, nb, na));
            }
        }
        return List.copyOf(out.values());
    }

    private static Map<String, Integer> counts(TopologyTable t) {
        Map<String, Integer> counts = new HashMap<>();
        for (Region r : t.regions()) {
            counts.merge(r.name(), r.prefixes().size(), Integer::sum);
        }
        return counts;
    }

    /** Records added and removed (where a record was written does not count), up to {@code examples} shown of each. */
    private static int[] recordChanges(TopologyTable before, TopologyTable after, int examples, List<String> shown) {
        Set<String> b = recordLines(before);
        Set<String> a = recordLines(after);
        int[] counts = new int[2];
        for (String r : a) {
            if (!b.contains(r) && counts[0]++ < examples) {
                shown.add("+ " + r);
            }
        }
        for (String r : b) {
            if (!a.contains(r) && counts[1]++ < examples) {
                shown.add("- " + r);
            }
        }
        return counts;
    }

    private static Set<String> recordLines(TopologyTable t) {
        Set<String> lines = new TreeSet<>();
        for (TopologyRecord r : t.records()) {
            lines.add(r.region() + " -> " + r.dataCenter() + " score " + r.score());
        }
        return lines;
    }
}
