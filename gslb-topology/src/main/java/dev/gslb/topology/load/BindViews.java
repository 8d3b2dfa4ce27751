package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.TopologyException;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
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
    private final Map<String, String> texts;
    private final Map<String, List<Token>> acls = new HashMap<>();
    private final Map<String, List<IPAddress>> resolvedAcls = new HashMap<>();
    private final java.util.Set<String> resolving = new java.util.HashSet<>();
    private final List<View> views = new ArrayList<>();
    private final List<String> notTranslated = new ArrayList<>();
    private final Problems problems = new Problems();
    /** Every prefix an earlier view matches, as text: a prefix inside one of these is never reached. */
    private final Set<String> taken = new java.util.HashSet<>();
    /** The prefix lengths {@link #taken} holds, so a check looks only at those. */
    private final java.util.BitSet takenLengths = new java.util.BitSet();

    private record Token(String text, String file, int line) {}

    /** Bounds on what a hostile named.conf can make us do: tokens after includes, list nesting. */
    static final int MAX_TOKENS = 2_000_000;

    static final int MAX_NESTING = 16;

    /** The files being included, innermost last: one that includes itself, however, is refused. */
    private final List<String> including = new ArrayList<>();

    private BindViews(String file, Map<String, String> texts) {
        this.file = file;
        this.texts = texts;
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
        BindViews b = new BindViews(main, texts);
        List<Token> tokens = new ArrayList<>();
        b.including.add(main);
        b.tokenize(main, texts.get(main), tokens, 0);
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

    // ---- reading named.conf ----

    private void tokenize(String name, String text, List<Token> out, int depth) {
        if (text == null) {
            return;
        }
        int line = 1;
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (out.size() > MAX_TOKENS) {
                problems.add(name, line, "more than " + MAX_TOKENS + " words with what it includes: too large");
                return;
            }
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                line += (int)
                        text.substring(i, end).chars().filter(ch -> ch == '\n').count();
                i = end;
            } else if (c == '"') {
                int end = text.indexOf('"', i + 1);
                if (end < 0) {
                    problems.add(name, line, "a quoted string is not closed");
                    return;
                }
                out.add(new Token("\"" + text.substring(i + 1, end), name, line));
                i = end + 1;
            } else if (c == '{' || c == '}' || c == ';' || c == '!') {
                out.add(new Token(String.valueOf(c), name, line));
                i++;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i)) && "{};\"!#".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                out.add(new Token(text.substring(start, i), name, line));
            }
            if (out.size() >= 3
                    && out.get(out.size() - 1).text().equals(";")
                    && out.get(out.size() - 3).text().equals("include")) {
                Token path = out.get(out.size() - 2);
                out.subList(out.size() - 3, out.size()).clear();
                include(path, out, depth);
            }
        }
    }

    private void include(Token path, List<Token> out, int depth) {
        String target = unquote(path.text());
        String found = texts.keySet().stream()
                .filter(k -> k.equals(target) || k.endsWith("/" + target) || target.endsWith("/" + baseName(k)))
                .findFirst()
                .orElse(null);
        if (found == null || depth > 8) {
            problems.add(
                    path.file(), path.line(), "include \"" + target + "\" was not given (or includes nest too deep)");
            return;
        }
        if (including.contains(found)) { // BIND would loop for ever; each pass here multiplied the text
            problems.add(path.file(), path.line(), "include \"" + target + "\" includes itself");
            return;
        }
        including.add(found);
        tokenize(found, texts.get(found), out, depth + 1);
        including.removeLast();
    }

    private static String baseName(String k) {
        int slash = k.lastIndexOf('/');
        return slash < 0 ? k : k.substring(slash + 1);
    }

    private static String unquote(String t) {
        return t.startsWith("\"") ? t.substring(1) : t;
    }

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
        List<IPAddress> matched =
                match == null ? List.of(any4(), any6()) : matchList(match, name, new ArrayList<>(), 0);
        // a default route cannot be a region (every address would match it): kept apart, so it does
        // not swallow the view's own prefixes when they are merged
        boolean all = matched.stream().anyMatch(p -> p.getPrefixLength() != null && p.getPrefixLength() == 0);
        List<IPAddress> own = new ArrayList<>();
        for (IPAddress p : merged(matched.stream()
                .filter(p -> p.getPrefixLength() == null || p.getPrefixLength() > 0)
                .toList())) {
            if (!covered(p)) { // one that holds an earlier view's prefix stays: the longer prefix wins there
                own.add(p);
            }
        }
        own.forEach(this::take);
        views.add(new View(
                name,
                regionName(name),
                own.stream().map(IPAddress::toPrefixLengthString).toList(),
                all && !covered(any4()),
                start.line()));
        if (all) {
            take(any4());
            take(any6());
        }
    }

    private void take(IPAddress p) {
        taken.add(p.toPrefixLengthString());
        takenLengths.set(p.getPrefixLength());
    }

    /** Whether an earlier view matches all of {@code p} (p or a prefix around it is taken). */
    private boolean covered(IPAddress p) {
        for (int len = takenLengths.previousSetBit(p.getPrefixLength());
                len >= 0;
                len = takenLengths.previousSetBit(len - 1)) {
            if (taken.contains(p.toPrefixBlock(len).toPrefixLengthString())) {
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
    private List<IPAddress> matchList(List<Token> list, String view, List<IPAddress> negated, int depth) {
        List<IPAddress> out = new ArrayList<>();
        List<IPAddress> neg = new ArrayList<>(negated);
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
            List<IPAddress> these;
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
                these = matchList(list.subList(i + 1, end), view, List.of(), depth + 1);
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
            if (not) {
                neg.addAll(these);
            } else {
                for (IPAddress p : these) {
                    out.addAll(minus(p, neg));
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
    private List<IPAddress> element(Token t, String view, int depth) {
        String w = unquote(t.text());
        String lower = w.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "any":
                return List.of(any4(), any6());
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
            List<IPAddress> known = resolvedAcls.get(w);
            if (known != null) {
                return known;
            }
            if (depth > 16 || !resolving.add(w)) {
                problems.add(t.file(), t.line(), "acl " + w + " refers to itself");
                return List.of();
            }
            List<IPAddress> resolved = matchList(acl, view, List.of(), depth + 1);
            resolving.remove(w);
            resolvedAcls.put(w, resolved);
            return resolved;
        }
        IPAddress a = prefix(w);
        if (a == null) {
            problems.add(t.file(), t.line(), "'" + w + "' is neither an address, a prefix nor a known acl");
            return List.of();
        }
        return List.of(a);
    }

    /** An address or prefix as BIND writes it, also the short form {@code 10/8} or {@code 172.16/12}. */
    static IPAddress prefix(String w) {
        String text = w;
        int slash = w.indexOf('/');
        String addr = slash < 0 ? w : w.substring(0, slash);
        if (!addr.contains(":") && addr.matches("\\d+(\\.\\d+){0,2}") && slash > 0) {
            StringBuilder b = new StringBuilder(addr);
            for (long dots = addr.chars().filter(c -> c == '.').count(); dots < 3; dots++) {
                b.append(".0");
            }
            text = b + w.substring(slash);
        }
        if (slash >= 0 && !Cidr.isLengthText(w.substring(slash + 1))) {
            return null;
        }
        IPAddress a = new IPAddressString(text, Cidr.LITERAL).getAddress(); // no wildcards or ranges
        if (a == null) {
            return null;
        }
        return a.getPrefixLength() == null ? a.setPrefixLength(a.getBitCount(), false) : a.toPrefixBlock();
    }

    private static IPAddress any4() {
        return new IPAddressString("0.0.0.0/0").getAddress();
    }

    private static IPAddress any6() {
        return new IPAddressString("::/0").getAddress();
    }

    /**
     * {@code p} less every prefix of {@code minus} (of the same family), as prefix blocks: p is
     * halved only where a negated prefix lies inside it, so the work grows with the negations
     * times the address bits, not with the pieces already cut (subtracting one by one did).
     */
    private static List<IPAddress> minus(IPAddress p, List<IPAddress> minus) {
        List<IPAddress> inside = new ArrayList<>();
        for (IPAddress m : minus) {
            if (m.isIPv4() == p.isIPv4() && (m.contains(p) || p.contains(m))) {
                inside.add(m);
            }
        }
        List<IPAddress> out = new ArrayList<>();
        cut(p, inside, out);
        return out;
    }

    private static void cut(IPAddress p, List<IPAddress> negated, List<IPAddress> out) {
        if (negated.isEmpty()) {
            out.add(p);
            return;
        }
        for (IPAddress m : negated) {
            if (m.contains(p)) {
                return;
            }
        }
        int half = p.getPrefixLength() + 1;
        for (IPAddress h :
                List.of(p.getLower().toPrefixBlock(half), p.getUpper().toPrefixBlock(half))) {
            List<IPAddress> in = new ArrayList<>();
            for (IPAddress m : negated) {
                if (h.contains(m) || m.contains(h)) {
                    in.add(m);
                }
            }
            cut(h, in, out);
        }
    }

    private static List<IPAddress> merged(List<IPAddress> all) {
        List<IPAddress> out = new ArrayList<>();
        List<IPAddress> v4 = all.stream().filter(IPAddress::isIPv4).toList();
        List<IPAddress> v6 = all.stream().filter(IPAddress::isIPv6).toList();
        if (!v4.isEmpty()) {
            out.addAll(List.of(v4.getFirst().mergeToPrefixBlocks(v4.toArray(IPAddress[]::new))));
        }
        if (!v6.isEmpty()) {
            out.addAll(List.of(v6.getFirst().mergeToPrefixBlocks(v6.toArray(IPAddress[]::new))));
        }
        return out;
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
