package dev.gslb.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link TopologyTable}: resolves the records' regions, flattens every region's
 * prefixes into sorted, disjoint intervals each pointing at the longest prefix that covers it,
 * and adds what negated records match. Build time only: the table it gives is looked up without
 * it.
 */
final class TopologyBuilder {
    private TopologyBuilder() {}

    /**
     * Builds a table. Errors (a record naming an unknown data center or region) throw; duplicate
     * and overlapping prefixes are warnings: the first loaded region keeps an exact duplicate, and
     * the longest match decides between nested prefixes.
     */
    static TopologyTable build(List<Region> loaded, List<TopologyRecord> records, Set<String> dataCenters)
            throws TopologyException {
        List<String> errors = new ArrayList<>();
        Map<String, Region> byName = new LinkedHashMap<>();
        for (Region r : loaded) {
            Region previous = byName.get(r.name());
            if (previous != null) { // the same region from several files (v4 and v6 lists): one region
                List<Region.Prefix> all = new ArrayList<>(previous.prefixes());
                all.addAll(r.prefixes());
                r = new Region(r.name(), all);
            }
            byName.put(r.name(), r);
        }
        Map<String, List<TopologyMatch.Score>> scores = new HashMap<>();
        List<TopologyRecord> mapped = new ArrayList<>();
        List<Negated> negated = new ArrayList<>();
        for (TopologyRecord rec : records) {
            if (rec.region().startsWith(TopologyRecord.NOT)) {
                Negated n = negated(rec, byName, dataCenters, errors);
                if (n != null) {
                    negated.add(n);
                }
                continue;
            }
            String region = RegionNames.resolve(rec.region(), byName.keySet());
            if (region == null) {
                errors.add(rec.origin() + ": " + RegionNames.unmapped(rec.region()) + "; loaded: "
                        + byName.keySet().stream().limit(20).toList());
                continue;
            }
            mapped.add(
                    region.equals(rec.region())
                            ? rec
                            : new TopologyRecord(region, rec.dataCenter(), rec.score(), rec.origin()));
        }
        for (TopologyRecord rec : mapped) {
            if (rec.targetsDataCenter() && !dataCenters.contains(rec.dataCenter())) {
                errors.add(rec.origin() + ": unknown data center '" + rec.dataCenter() + "'; defined: " + dataCenters);
            }
            if (!byName.containsKey(rec.region())) {
                Cidr cidr = asCidr(rec.region());
                if (cidr == null) {
                    errors.add(rec.origin() + ": no region named '" + rec.region() + "' is loaded; loaded: "
                            + byName.keySet().stream().limit(20).toList());
                    continue;
                }
                String[] where = rec.origin().split(":(?=\\d+$)");
                int line = where.length > 1 ? Integer.parseInt(where[1]) : 0;
                byName.put(rec.region(), new Region(rec.region(), List.of(new Region.Prefix(cidr, where[0], line))));
            }
            scores.computeIfAbsent(rec.region(), k -> new ArrayList<>())
                    .add(new TopologyMatch.Score(rec.dataCenter(), rec.score()));
        }
        if (!errors.isEmpty()) {
            throw new TopologyException(errors);
        }
        // Highest score first; List.sort is stable, so equal scores keep configuration order.
        scores.values()
                .forEach(l -> l.sort(
                        Comparator.comparingLong(TopologyMatch.Score::score).reversed()));
        TopologyTable t = flatten(new ArrayList<>(byName.values()), records, scores);
        return negated.isEmpty() ? t : withNegated(t, negated);
    }

    /** A record for every address outside some prefixes (3DNS {@code !region."X"}, {@code !CIDR}). */
    private record Negated(List<Cidr> outside, TopologyMatch.Score score) {}

    private static Negated negated(
            TopologyRecord rec, Map<String, Region> byName, Set<String> dataCenters, List<String> errors) {
        String source = rec.region().substring(TopologyRecord.NOT.length());
        if (rec.targetsDataCenter() && !dataCenters.contains(rec.dataCenter())) {
            errors.add(rec.origin() + ": unknown data center '" + rec.dataCenter() + "'; defined: " + dataCenters);
            return null;
        }
        Cidr cidr = asCidr(source);
        if (cidr != null) {
            return new Negated(List.of(cidr), new TopologyMatch.Score(rec.dataCenter(), rec.score()));
        }
        String region = RegionNames.resolve(source, byName.keySet());
        if (region == null || !byName.containsKey(region)) {
            errors.add(rec.origin() + ": "
                    + (region == null ? RegionNames.unmapped(source) : "no region named '" + source + "' is loaded")
                    + "; loaded: " + byName.keySet().stream().limit(20).toList());
            return null;
        }
        return new Negated(
                byName.get(region).prefixes().stream().map(Region.Prefix::cidr).toList(),
                new TopologyMatch.Score(rec.dataCenter(), rec.score()));
    }

    /**
     * This table with negated records: each interval outside a negated record's prefixes gets its
     * score too, and the address space no prefix covers becomes intervals of their own (matched
     * only by negated records; their prefix length is unknown, -1, so a client subnet's scope is
     * its own). Intervals never straddle a prefix's edge, so an interval is inside or outside
     * each prefix as a whole: its first address says which.
     */
    private static TopologyTable withNegated(TopologyTable t, List<Negated> negated) {
        List<PrefixSet> outside =
                negated.stream().map(n -> PrefixSet.of(n.outside())).toList();
        List<TopologyMatch.Score> all = negated.stream().map(Negated::score).toList();
        TopologyMatch gap = new TopologyMatch(null, "(no region)", sorted(all));
        Map<String, TopologyMatch> merged = new HashMap<>();
        Intervals out = new Intervals(t.startHi.length * 2 + 2);
        Ranges gaps = Ranges.ofRanges(t.startHi, t.startLo, t.endHi, t.endLo).negate();
        int g = 0;
        for (int i = 0; i < t.startHi.length; i++) {
            for (; g < gaps.rangeCount() && gaps.startsBefore(g, t.startHi[i], t.startLo[i]); g++) {
                out.add(gaps, g, gap);
            }
            List<TopologyMatch.Score> extra = new ArrayList<>();
            StringBuilder key = new StringBuilder()
                    .append(System.identityHashCode(t.matches[i]))
                    .append(':');
            for (int k = 0; k < negated.size(); k++) {
                if (!outside.get(k).contains(t.startHi[i], t.startLo[i])) {
                    extra.add(negated.get(k).score());
                    key.append(k).append(',');
                }
            }
            TopologyMatch m = t.matches[i];
            if (!extra.isEmpty()) {
                TopologyMatch base = m;
                m = merged.computeIfAbsent(key.toString(), x -> {
                    List<TopologyMatch.Score> sc = new ArrayList<>(base.scores());
                    sc.addAll(extra);
                    return new TopologyMatch(base.cidr(), base.region(), sorted(sc));
                });
            }
            out.add(t.startHi[i], t.startLo[i], t.endHi[i], t.endLo[i], m);
        }
        for (; g < gaps.rangeCount(); g++) {
            out.add(gaps, g, gap);
        }
        return out.table(t.regions(), t.records(), t.warnings());
    }

    private static List<TopologyMatch.Score> sorted(List<TopologyMatch.Score> scores) {
        List<TopologyMatch.Score> l = new ArrayList<>(scores);
        l.sort(Comparator.comparingLong(TopologyMatch.Score::score).reversed());
        return l;
    }

    private static Cidr asCidr(String text) {
        try {
            return Cidr.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private record Entry(Region.Prefix prefix, String region) {
        long lastHi() {
            return prefix.cidr().lastHi();
        }

        long lastLo() {
            return prefix.cidr().lastLo();
        }

        /** Whether this prefix ends before {@code e} starts. */
        boolean endsBefore(Entry e) {
            return Ranges.compare(
                            lastHi(),
                            lastLo(),
                            e.prefix.cidr().firstHi(),
                            e.prefix.cidr().firstLo())
                    < 0;
        }
    }

    private static TopologyTable flatten(
            List<Region> regions, List<TopologyRecord> records, Map<String, List<TopologyMatch.Score>> scores) {
        List<String> warnings = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (Region r : regions) {
            for (Region.Prefix p : r.prefixes()) {
                entries.add(new Entry(p, r.name()));
            }
        }
        entries.sort((a, b) -> a.prefix().cidr().compareTo(b.prefix().cidr())); // stable: load order on ties
        Map<String, Integer> sizes = new HashMap<>();
        regions.forEach(r -> sizes.put(r.name(), r.prefixes().size()));
        entries = withoutDuplicates(entries, scores, sizes, warnings);

        Map<String, Integer> nested = new LinkedHashMap<>();
        Intervals out = new Intervals(entries.size() * 2 + 1);
        Deque<Entry> stack = new ArrayDeque<>();
        Deque<TopologyMatch> matches = new ArrayDeque<>(); // each stacked entry's match, pushed and popped with it
        for (Entry e : entries) {
            while (!stack.isEmpty() && stack.peek().endsBefore(e)) {
                Entry top = stack.pop();
                out.upTo(top.lastHi(), top.lastLo(), matches.pop());
            }
            if (!stack.isEmpty()) {
                Cidr c = e.prefix().cidr();
                out.before(c.firstHi(), c.firstLo(), matches.peek());
                if (!stack.peek().region().equals(e.region())) {
                    nested.merge(e.region() + " inside " + stack.peek().region(), 1, Integer::sum);
                }
            }
            out.from(e.prefix().cidr().firstHi(), e.prefix().cidr().firstLo());
            stack.push(e);
            matches.push(new TopologyMatch(e.prefix().cidr(), e.region(), scores.getOrDefault(e.region(), List.of())));
        }
        while (!stack.isEmpty()) {
            Entry top = stack.pop();
            out.upTo(top.lastHi(), top.lastLo(), matches.pop());
        }
        nested.forEach((pair, n) -> warnings.add(n + " prefix(es) of region "
                + pair.replace(" inside ", " lie inside region ") + "; the longer match decides"));
        return out.table(regions, records, warnings);
    }

    /**
     * Keeps one entry per prefix. Among exact duplicates a region with records beats one without,
     * then the smaller region (fewer prefixes: the more specific, so the all-China list cannot hide
     * an ISP's own prefixes), then the first loaded.
     */
    private static List<Entry> withoutDuplicates(
            List<Entry> sorted,
            Map<String, List<TopologyMatch.Score>> scores,
            Map<String, Integer> sizes,
            List<String> warnings) {
        List<Entry> out = new ArrayList<>(sorted.size());
        int duplicates = 0;
        for (int i = 0; i < sorted.size(); ) {
            int j = i + 1;
            while (j < sorted.size()
                    && sorted.get(j)
                            .prefix()
                            .cidr()
                            .equals(sorted.get(i).prefix().cidr())) {
                j++;
            }
            Entry keep = sorted.get(i);
            for (int k = i + 1; k < j; k++) {
                Entry e = sorted.get(k);
                boolean eScored = scores.containsKey(e.region());
                boolean keepScored = scores.containsKey(keep.region());
                if (eScored && !keepScored
                        || eScored == keepScored && sizes.get(e.region()) < sizes.get(keep.region())) {
                    keep = e;
                }
            }
            for (int k = i; k < j; k++) {
                Entry e = sorted.get(k);
                if (e != keep && duplicates++ < 20) {
                    warnings.add(e.prefix().where() + ": " + e.prefix().cidr() + " of region " + e.region()
                            + " is also in region " + keep.region() + " ("
                            + keep.prefix().where() + "); "
                            + keep.region() + " keeps it");
                }
            }
            out.add(keep);
            i = j;
        }
        if (duplicates > 20) {
            warnings.add("... and " + (duplicates - 20) + " more duplicate prefix(es)");
        }
        return out;
    }

    /**
     * Growable primitive arrays for the intervals while building, and the cursor of a sweep: the
     * first address not yet given an interval (none once the top of the space is given).
     */
    private static final class Intervals {
        private long[] sh, sl, eh, el;
        private TopologyMatch[] m;
        private int n;
        private long curHi;
        private long curLo;
        private boolean past;

        Intervals(int capacity) {
            sh = new long[capacity];
            sl = new long[capacity];
            eh = new long[capacity];
            el = new long[capacity];
            m = new TopologyMatch[capacity];
        }

        void add(long startHi, long startLo, long endHi, long endLo, TopologyMatch match) {
            sh[n] = startHi;
            sl[n] = startLo;
            eh[n] = endHi;
            el[n] = endLo;
            m[n++] = match;
        }

        /** Adds range {@code i} of {@code set}. */
        void add(Ranges set, int i, TopologyMatch match) {
            add(set.bound(i, 0), set.bound(i, 1), set.bound(i, 2), set.bound(i, 3), match);
        }

        /** The sweep goes on at {@code hi:lo}. */
        void from(long hi, long lo) {
            curHi = hi;
            curLo = lo;
            past = false;
        }

        /** The cursor up to {@code hi:lo} goes to {@code match}; the sweep goes on after it. */
        void upTo(long hi, long lo, TopologyMatch match) {
            if (!past && Ranges.compare(curHi, curLo, hi, lo) <= 0) {
                add(curHi, curLo, hi, lo, match);
            }
            past = hi == -1 && lo == -1;
            curLo = lo + 1;
            curHi = curLo == 0 ? hi + 1 : hi;
        }

        /** The cursor up to just before {@code hi:lo} goes to {@code match}. */
        void before(long hi, long lo, TopologyMatch match) {
            if (!past && Ranges.compare(curHi, curLo, hi, lo) < 0) {
                add(curHi, curLo, lo == 0 ? hi - 1 : hi, lo - 1, match);
            }
        }

        TopologyTable table(List<Region> regions, List<TopologyRecord> records, List<String> warnings) {
            return new TopologyTable(
                    Arrays.copyOf(sh, n),
                    Arrays.copyOf(sl, n),
                    Arrays.copyOf(eh, n),
                    Arrays.copyOf(el, n),
                    Arrays.copyOf(m, n),
                    regions,
                    records,
                    warnings);
        }
    }
}
