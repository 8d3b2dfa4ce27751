package dev.gslb.topology.load;

import static dev.gslb.topology.load.NamedConf.unquote;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.PrefixSet;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.NamedConf.Token;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * BIND's views per ISP (the usual "smart DNS" set-up) as topology: each {@code view} becomes a
 * region of the prefixes its {@code match-clients} list matches (through {@code acl}s, nested
 * lists and {@code !} negation), and a record sending that region to the data center the view
 * stands for. BIND takes the first view that matches; the topology table takes the longest
 * prefix, so each view's region loses whatever an earlier view already matches, and the two
 * agree for every address. What has no counterpart (keys, geoip, localhost/localnets,
 * match-destinations) is listed, not guessed.
 */
public final class BindViews {
    /** One view as translated: its region's prefixes, and how many prefixes earlier views took. */
    public record View(String name, String region, List<String> prefixes, boolean matchesAll, int line) {}

    private final String file;
    private final Map<String, List<Token>> acls = new HashMap<>();
    private final Map<String, List<PrefixSet>> resolvedAcls = new HashMap<>();
    private final java.util.Set<String> resolving = new java.util.HashSet<>();
    private final List<View> views = new ArrayList<>();
    private final List<String> notTranslated = new ArrayList<>();
    private final Problems problems = new Problems();
    /** Every prefix an earlier view matches: a prefix inside one of these is never reached. */
    private final Set<Cidr> taken = new java.util.HashSet<>();
    /** The prefix lengths {@link #taken} holds, so a check looks only at those. */
    private final java.util.BitSet takenLengths = new java.util.BitSet();

    /** How deep address-match lists may nest (what reading named.conf may cost: {@link NamedConf}). */
    static final int MAX_NESTING = 16;

    private BindViews(String file) {
        this.file = file;
    }

    /**
     * Reads {@code texts} (file name -> content; the first is named.conf, the others what it
     * includes). Throws with file:line for what cannot be read at all.
     */
    public static BindViews read(Map<String, String> texts) throws TopologyException {
        if (texts.isEmpty()) {
            throw new TopologyException(List.of("no named.conf given"));
        }
        String main = texts.keySet().iterator().next();
        BindViews b = new BindViews(main);
        List<Token> tokens = NamedConf.tokens(texts, main, b.problems);
        b.problems.throwIfAny();
        b.statements(tokens);
        b.problems.throwIfAny();
        if (b.views.isEmpty()) {
            throw new TopologyException(List.of(main + ": no view with match-clients: nothing to translate"));
        }
        return b;
    }

    public List<View> views() {
        return views;
    }

    public List<String> notTranslated() {
        return notTranslated;
    }

    /**
     * What {@code gslb topology load} takes: one CIDR list per view (named after its region) and a
     * 3DNS topology text whose records send each region to its data center at score 100. A view
     * goes to {@code map}'s data center, else to the data center of its own name (any case); a
     * view with neither keeps its region (so its clients are not caught by a broader view) and is
     * listed in {@code notes}.
     */
    public Translation topology(Map<String, String> map, Set<String> dataCenters, List<String> notes) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> sentTo = new LinkedHashMap<>();
        StringBuilder records = new StringBuilder("// from BIND views in " + file + "\ntopology {\n");
        int n = 0;
        for (View v : views) {
            if (v.matchesAll()) {
                notes.add(file + ":" + v.line() + ": view " + v.name() + " matches every other address: that is"
                        + " what happens when topology has no match (the next method, global availability, decides:"
                        + " put its data center's servers first in the pool)");
                if (v.prefixes().isEmpty()) {
                    continue;
                }
            }
            if (v.prefixes().isEmpty()) {
                notes.add(file + ":" + v.line() + ": view " + v.name()
                        + " matches no address an earlier view does not: BIND never uses it");
                continue;
            }
            out.put(v.region(), String.join("\n", v.prefixes()) + "\n");
            String view = v.name();
            String dc = map.get(view);
            if (dc == null) {
                dc = dataCenters.stream()
                        .filter(d -> d.equalsIgnoreCase(view))
                        .findFirst()
                        .orElse(null);
            }
            if (dc == null) {
                notes.add(file + ":" + v.line() + ": view " + v.name() + " stands for no data center (give --map "
                        + v.name() + "=DC): its region is loaded without a record");
                continue;
            }
            sentTo.put(v.region(), dc);
            records.append("   dc.\"")
                    .append(dc)
                    .append("\"   region.\"")
                    .append(v.region())
                    .append("\"   100\n");
            n++;
        }
        if (n > 0) {
            out.put("bind-views.topology", records.append("}\n").toString());
        }
        return new Translation(out, sentTo);
    }

    /**
     * @param texts      what to load: file name -> content
     * @param dataCenter region -> the data center its record sends it to (none: no record)
     */
    public record Translation(Map<String, String> texts, Map<String, String> dataCenter) {}

    private int at;
    private List<Token> tokens;

    private void statements(List<Token> all) {
        this.tokens = all;
        at = 0;
        while (at < tokens.size()) {
            Token t = tokens.get(at);
            String word = t.text().toLowerCase(Locale.ROOT);
            if (word.equals("acl")) {
                at++;
                String name = unquote(next().text());
                acls.put(name, block());
                expect(";");
            } else if (word.equals("view")) {
                at++;
                view(unquote(next().text()), t);
            } else {
                skipStatement();
            }
        }
    }

    private void view(String name, Token start) {
        if (!peek().text().equals("{")) {
            at++; // the class (IN)
        }
        expect("{");
        List<Token> match = null;
        while (at < tokens.size() && !peek().text().equals("}")) {
            Token t = next();
            String word = t.text().toLowerCase(Locale.ROOT);
            if (word.equals("match-clients")) {
                match = block();
                expect(";");
            } else if (word.equals("match-destinations") || word.equals("match-recursive-only")) {
                notTranslated.add(t.file() + ":" + t.line() + ": view " + name + ": " + word
                        + " has no counterpart (only the resolver's address decides here)");
                at--;
                skipStatement();
            } else {
                at--;
                skipStatement();
            }
        }
        expect("}");
        expect(";");
        List<PrefixSet> matched = match == null ? List.of(PrefixSet.IPV4, PrefixSet.IPV6) : matchList(match, name, 0);
        // a default route cannot be a region (every address would match it): kept apart, so it does
        // not swallow the view's own prefixes when they are merged
        boolean all = matched.stream().anyMatch(PrefixBlocks::isFamily);
        List<Cidr> own = new ArrayList<>();
        for (Cidr p : PrefixSet.union(matched.stream().filter(m -> !PrefixBlocks.isFamily(m)))
                .prefixes()) {
            if (!covered(p)) { // one that holds an earlier view's prefix stays: the longer prefix wins there
                own.add(p);
            }
        }
        own.forEach(this::take);
        views.add(new View(
                name,
                regionName(name),
                own.stream().map(PrefixBlocks::text).toList(),
                all && !covered(PrefixBlocks.ANY4),
                start.line()));
        if (all) {
            take(PrefixBlocks.ANY4);
            take(PrefixBlocks.ANY6);
        }
    }

    private void take(Cidr p) {
        taken.add(p);
        takenLengths.set(p.length());
    }

    /** Whether an earlier view matches all of {@code p} (p or a prefix around it is taken). */
    private boolean covered(Cidr p) {
        for (int len = takenLengths.previousSetBit(p.length()); len >= 0; len = takenLengths.previousSetBit(len - 1)) {
            if (taken.contains(new Cidr(p.hi(), p.lo(), len, p.ipv4()).network())) {
                return true;
            }
        }
        return false;
    }

    /** Region names are file-name-like: the view's name with anything else replaced. */
    private static String regionName(String view) {
        return "view-" + view.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /**
     * The prefixes an address-match list matches, in BIND's order: the first element that
     * matches decides, so a negated element removes its prefixes from every later positive one.
     */
    private List<PrefixSet> matchList(List<Token> list, String view, int depth) {
        List<PrefixSet> out = new ArrayList<>();
        PrefixSet neg = PrefixSet.EMPTY;
        for (int i = 0; i < list.size(); i++) {
            Token t = list.get(i);
            boolean not = t.text().equals("!");
            if (not) {
                if (i + 1 >= list.size()) {
                    problems.add(t.file(), t.line(), "'!' with nothing after it");
                    break;
                }
                t = list.get(++i);
            }
            List<PrefixSet> these;
            if (t.text().equals("{")) {
                if (depth > MAX_NESTING) {
                    problems.add(t.file(), t.line(), "lists nest more than " + MAX_NESTING + " deep");
                    break;
                }
                int end = closing(list, i);
                if (end < 0) {
                    unclosed(t);
                    break;
                }
                these = matchList(list.subList(i + 1, end), view, depth + 1);
                i = end;
            } else {
                these = element(t, view, depth);
                if (these == null) { // not translatable: skip to its ';'
                    while (i + 1 < list.size() && !list.get(i + 1).text().equals(";")) {
                        i++;
                    }
                    these = List.of();
                }
            }
            if (i + 1 < list.size() && list.get(i + 1).text().equals(";")) {
                i++;
            }
            for (PrefixSet p : these) {
                if (not) {
                    neg = neg.union(p);
                } else {
                    out.add(p.subtract(neg));
                }
            }
        }
        return out;
    }

    /** The index of the '}' that closes the '{' at {@code open}, or -1 when none does. */
    private static int closing(List<Token> list, int open) {
        int d = 0;
        for (int i = open; i < list.size(); i++) {
            if (list.get(i).text().equals("{")) {
                d++;
            } else if (list.get(i).text().equals("}") && --d == 0) {
                return i;
            }
        }
        return -1;
    }

    private void unclosed(Token open) {
        problems.add(open.file(), open.line(), "this '{' is not closed");
    }

    /** One element: an address or prefix, an acl's name, any/none; null when it has no counterpart. */
    private List<PrefixSet> element(Token t, String view, int depth) {
        String w = unquote(t.text());
        String lower = w.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "any":
                return List.of(PrefixSet.IPV4, PrefixSet.IPV6);
            case "none":
                return List.of();
            case "localhost", "localnets", "key", "geoip", "ecs":
                notTranslated.add(t.file() + ":" + t.line() + ": view " + view + ": '" + lower
                        + "' in match-clients has no counterpart here; left out");
                return null;
            default:
        }
        List<Token> acl = acls.get(w);
        if (acl != null) {
            // an acl means the same wherever it is named: resolved once, so acls naming each
            // other many times cost one pass each, and one that names itself is an error
            List<PrefixSet> known = resolvedAcls.get(w);
            if (known != null) {
                return known;
            }
            if (depth > 16 || !resolving.add(w)) {
                problems.add(t.file(), t.line(), "acl " + w + " refers to itself");
                return List.of();
            }
            List<PrefixSet> resolved = matchList(acl, view, depth + 1);
            resolving.remove(w);
            resolvedAcls.put(w, resolved);
            return resolved;
        }
        Cidr a = PrefixBlocks.parse(w);
        if (a == null) {
            problems.add(t.file(), t.line(), "'" + w + "' is neither an address, a prefix nor a known acl");
            return List.of();
        }
        return List.of(PrefixSet.of(a));
    }

    // ---- token helpers ----

    private Token peek() {
        return at < tokens.size() ? tokens.get(at) : new Token("", file, 0);
    }

    private Token next() {
        Token t = peek();
        at++;
        return t;
    }

    private void expect(String text) {
        Token t = next();
        if (!t.text().equals(text)) {
            problems.add(t.file(), t.line(), "expected '" + text + "', found '" + unquote(t.text()) + "'");
            at = tokens.size(); // one error is enough to stop at: the rest would not line up
        }
    }

    /** A {@code { ... }} block's tokens (without the braces). */
    private List<Token> block() {
        int open = at;
        if (!peek().text().equals("{")) {
            expect("{");
            return List.of();
        }
        int end = closing(tokens, open);
        if (end < 0) {
            unclosed(tokens.get(open));
            at = tokens.size();
            return List.of();
        }
        at = end + 1;
        return tokens.subList(open + 1, end);
    }

    /** Skips one statement: up to its ';' at this level, past any block in it. */
    private void skipStatement() {
        while (at < tokens.size()) {
            Token t = next();
            if (t.text().equals(";")) {
                return;
            }
            if (t.text().equals("{")) {
                int end = closing(tokens, at - 1);
                if (end < 0) {
                    unclosed(t);
                    at = tokens.size();
                    return;
                }
                at = end + 1;
            }
        }
    }
}
