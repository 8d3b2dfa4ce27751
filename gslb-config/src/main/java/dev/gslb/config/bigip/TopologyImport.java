package dev.gslb.config.bigip;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.RegionNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * F5 topology records ({@code gtm topology ldns: SOURCE server: TARGET { score N }}) and the
 * regions they name, as a topology file in 3DNS syntax ({@code dc."DC1" 10.0.0.0/8 100}). An LDNS
 * region becomes one record per member (a subnet, ISP, country or continent, nested regions
 * followed), which matches the same addresses. The matching differs in one way, said once in the
 * report: here an LDNS is placed in its most specific region and only that region's records score
 * the candidates; F5 scores each candidate by the first record, in longest-match order, that
 * matches both the LDNS and the candidate.
 */
final class TopologyImport {
    private static final int MAX_REGION_DEPTH = 16;
    /** Subnets and lists one record may stand for; records in all. */
    private static final int MAX_SOURCES = 100_000;

    private static final int MAX_RECORDS = 1_000_000;
    private static final Set<String> LDNS_KINDS = Set.of("subnet", "region", "isp", "country", "continent");

    private final ImportReport report;
    private final Map<String, TmshNode> regions = new HashMap<>();
    private final Function<String, String> names;
    private final Set<String> loadedRegions;
    private final List<String> records = new ArrayList<>();
    private boolean matchingNoted;
    private final Map<String, F5Object> regionObjects = new HashMap<>();
    /** Each region's sources once expanded (null: it cannot be written). */
    private final Map<String, Set<String>> expanded = new HashMap<>();

    /**
     * @param names         an F5 name to ours (partition taken off)
     * @param loadedRegions the regions the topology data written into the config loads (ISP and
     *                      country sources must map onto one of them)
     */
    TopologyImport(ImportReport report, Function<String, String> names, Set<String> loadedRegions) {
        this.report = report;
        this.names = names;
        this.loadedRegions = loadedRegions;
    }

    void region(TmshNode node, String name) {
        regions.put(name, node);
        regionObjects.put(name, new F5Object(node, "region", name, report));
    }

    /** The regions: each reported as used by records, or not used. */
    void finishRegions() {
        for (F5Object o : regionObjects.values()) {
            o.get("region-members");
            o.mapped("region " + o.name + ": its members are written into each record that names it");
            o.rest();
        }
    }

    /** One {@code gtm topology} record: its words after "gtm topology", its score from the block. */
    void record(TmshNode node, Predicate<String> isDataCenter, Predicate<String> isPool) {
        List<String> w = new ArrayList<>(node.words().subList(2, node.words().size()));
        if (w.size() == 1) { // a record written as one quoted name: "ldns: subnet ... server: ..."
            w = List.of(w.getFirst().trim().split("\\s+"));
        }
        String shown = String.join(" ", w);
        F5Object o = new F5Object(node, "topology", shown, report);
        int ldns = w.indexOf("ldns:");
        int server = w.indexOf("server:");
        if (ldns != 0 || server < 0) {
            o.unsupported("expected 'ldns: SOURCE server: TARGET'");
            o.rest();
            return;
        }
        long score = 1;
        int end = w.size();
        int scoreAt = w.indexOf("score");
        if (scoreAt > server && scoreAt + 1 < w.size()) { // an old record: "... score 100" in its name
            end = scoreAt;
            score = number(w.get(scoreAt + 1), o);
        }
        TmshNode s = o.get("score");
        if (s != null) {
            score = number(s.value(), o);
        }
        TmshNode order = o.get("order");
        if (order != null) {
            o.different(
                    order,
                    "order " + order.value() + ": ours matches by longest prefix, the order of records does not count");
        }
        List<String> source = w.subList(1, server);
        List<String> target = w.subList(server + 1, end);
        String t = target(target, o, isDataCenter, isPool);
        if (t == null) {
            o.rest();
            return;
        }
        Set<String> sources = new LinkedHashSet<>();
        boolean negated = !source.isEmpty() && source.getFirst().equals("not");
        List<String> src = negated ? source.subList(1, source.size()) : source;
        if (src.size() != 2 || !LDNS_KINDS.contains(src.getFirst())) {
            o.unsupported("LDNS side '" + String.join(" ", source)
                    + "': ours takes a subnet, region, isp, country or continent");
            o.rest();
            return;
        }
        if (!sources(src.get(0), src.get(1), sources, o, 0)) {
            o.rest();
            return;
        }
        if (negated && sources.size() != 1) {
            o.unsupported("'not region' of " + sources.size() + " members: ours negates one subnet or list only");
            o.rest();
            return;
        }
        if (records.size() + sources.size() > MAX_RECORDS) {
            o.unsupported("more than " + MAX_RECORDS + " topology records in all; not written");
            o.rest();
            return;
        }
        for (String one : sources) {
            records.add(t + " " + (negated ? "!" : "") + one + " " + score);
        }
        o.mapped("-> " + sources.size() + (sources.size() == 1 ? " record" : " records") + ", score " + score);
        if (!matchingNoted) {
            matchingNoted = true;
            o.different("matching: here an LDNS is placed in its most specific region (subnet or list) and only that"
                    + " region's records (and 'not' records) score the candidates; F5 scores each candidate by the"
                    + " first record, in longest-match order, matching both: the same unless a broader record scores a"
                    + " data center a narrower one does not");
        }
        o.rest();
    }

    private static long number(String text, F5Object o) {
        try {
            long v = Long.parseLong(text);
            if (v >= 0 && v <= 0xFFFF_FFFFL) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        o.different("score '" + text + "' is not 0..4294967295; 1 (F5's default) is used");
        return 1;
    }

    private String target(List<String> target, F5Object o, Predicate<String> isDataCenter, Predicate<String> isPool) {
        if (target.size() != 2) {
            o.unsupported(
                    "server side '" + String.join(" ", target) + "': ours takes 'datacenter NAME' or 'pool NAME'");
            return null;
        }
        String name = names.apply(target.get(1));
        return switch (target.getFirst()) {
            case "datacenter" -> {
                if (!isDataCenter.test(name)) {
                    o.unsupported("data center " + name + " is not defined (or was not imported)");
                    yield null;
                }
                yield "dc.\"" + name + "\"";
            }
            case "pool" -> {
                if (!isPool.test(name)) {
                    o.unsupported("pool " + name + " is not defined (or was not imported)");
                    yield null;
                }
                yield "pool.\"" + name + "\"";
            }
            default -> {
                o.unsupported("server side '" + target.getFirst() + "': ours scores a data center or a pool"
                        + " (or a server); not a " + target.getFirst());
                yield null;
            }
        };
    }

    /** The sources {@code kind value} stands for, added to {@code into}; false (reported) when one cannot be written. */
    private boolean sources(String kind, String value, Set<String> into, F5Object o, int depth) {
        switch (kind) {
            case "subnet" -> {
                try {
                    into.add(Cidr.parse(value).toString());
                    return true;
                } catch (IllegalArgumentException e) {
                    o.unsupported("subnet " + value + ": " + e.getMessage());
                    return false;
                }
            }
            case "isp", "country", "continent" -> {
                String name = names.apply(value);
                if (RegionNames.resolve(kind + ":" + name, loadedRegions) == null) {
                    o.unsupported(kind + " " + value + ": " + RegionNames.unmapped(kind + ":" + name)
                            + "; give the lists with --topology-data");
                    return false;
                }
                if (kind.equals("isp")
                        && Set.of("BeijingCNC", "ShanghaiCNC", "ShanghaiTelecom")
                                .contains(name)) {
                    o.different(kind + " " + value + ": matches the whole of "
                            + RegionNames.resolve(kind + ":" + name, loadedRegions)
                            + " (the shipped lists are per ISP, not per city)");
                }
                into.add(kind + ".\"" + name + "\"");
                return true;
            }
            case "region" -> {
                String name = names.apply(value);
                Set<String> members = region(name, o, depth);
                if (members == null) {
                    return false;
                }
                into.addAll(members);
                if (into.size() > MAX_SOURCES) {
                    o.unsupported("more than " + MAX_SOURCES + " subnets and lists in one record; not written");
                    return false;
                }
                return true;
            }
            default -> {
                o.unsupported("LDNS " + kind + ": no counterpart here");
                return false;
            }
        }
    }

    /**
     * The sources a region stands for, each once: expanded once per region however many records
     * and regions name it (regions naming each other four times over, fifteen deep, would
     * otherwise be 4^15 records); null, reported once, when one of them cannot be written.
     */
    private Set<String> region(String name, F5Object o, int depth) {
        if (expanded.containsKey(name)) {
            Set<String> known = expanded.get(name);
            if (known == null) {
                o.unsupported("region " + name + " cannot be written (see its line)");
            }
            return known;
        }
        TmshNode r = regions.get(name);
        if (r == null) {
            o.unsupported("region " + name + " is not defined");
            return null;
        }
        if (depth >= MAX_REGION_DEPTH) {
            o.unsupported("region " + name + ": regions nested more than " + MAX_REGION_DEPTH + " deep (a cycle?)");
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        boolean ok = true;
        for (TmshNode c : r.childrenOrEmpty()) {
            if (!c.key().equals("region-members")) {
                continue;
            }
            for (TmshNode member : c.childrenOrEmpty()) {
                List<String> w = member.words();
                if (w.size() != 2 || !LDNS_KINDS.contains(w.getFirst())) {
                    report.unsupported(
                            "region",
                            name,
                            member.line(),
                            "member '" + String.join(" ", w) + "': ours takes subnet, region, isp, country or"
                                    + " continent members (no 'not' inside a region); the records naming it are"
                                    + " not written");
                    ok = false;
                    break;
                }
                if (!sources(w.get(0), w.get(1), out, o, depth + 1)) {
                    ok = false;
                    break;
                }
            }
        }
        if (depth > 0 || ok) { // a failure at the top is the record's; below it, the region's for good
            expanded.put(name, ok ? out : null);
        }
        return ok ? out : null;
    }

    /** The topology file, or null when no record was written. */
    String file() {
        if (records.isEmpty()) {
            return null;
        }
        StringBuilder b =
                new StringBuilder("// F5 topology records, imported by gslb import bigip (3DNS syntax)\ntopology {\n");
        for (String r : records) {
            b.append("  ").append(r).append('\n');
        }
        return b.append("}\n").toString();
    }

    int size() {
        return records.size();
    }
}
