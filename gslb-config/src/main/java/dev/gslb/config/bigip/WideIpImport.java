package dev.gslb.config.bigip;

import static dev.gslb.config.bigip.F5Values.MAX_TTL;
import static dev.gslb.config.bigip.F5Values.name;
import static dev.gslb.config.bigip.F5Values.number;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * F5's {@code gtm wideip a|aaaa|cname}: pools in order, the pool method (F5's default
 * round-robin), persistence, the last-resort pool, the failure answer, and a wide IP per alias; an
 * A and an AAAA wide IP of one name become one.
 */
final class WideIpImport {
    private final ImportReport report;
    private final ImportedConfig config;

    WideIpImport(ImportReport report, ImportedConfig config) {
        this.report = report;
        this.config = config;
    }

    void wideIp(TmshNode n) {
        boolean typed = n.words().size() >= 4;
        String type = typed ? n.word(2) : "a";
        String wName = name(n.word(typed ? 3 : 2));
        F5Object o = new F5Object(n, "wideip", wName, report);
        if (!Set.of("a", "aaaa", "cname").contains(type)) {
            o.unsupported("wide IP type " + type + ": ours answers A, AAAA and CNAME");
            return;
        }
        List<String> names = new ArrayList<>();
        if (wildcard(o, o.node, wName)) {
            names.add(wName);
        }
        for (TmshNode aliases : o.all("aliases")) {
            for (String alias : aliases.items()) {
                if (wildcard(o, aliases, alias)) {
                    names.add(alias);
                    o.mapped(aliases, "alias " + alias + ": a wide IP of its own with the same pools and settings");
                }
            }
        }
        List<Object> choices = new ArrayList<>();
        List<Map.Entry<Long, TmshNode>> ordered = new ArrayList<>();
        Map<TmshNode, String> wanted = new java.util.IdentityHashMap<>();
        for (String key : List.of("pools", "pools-cname")) {
            for (TmshNode p : o.block(key)) {
                wanted.put(p, key.equals("pools-cname") ? "cname" : type);
                long order = ordered.size();
                for (TmshNode prop : p.childrenOrEmpty()) {
                    if (prop.key().equals("order")) {
                        try {
                            order = Long.parseLong(prop.value());
                        } catch (NumberFormatException e) {
                            o.different(prop, "order " + prop.value() + " is not a number; listing order kept");
                        }
                    }
                }
                ordered.add(Map.entry(order, p));
            }
        }
        ordered.sort(Map.Entry.comparingByKey());
        for (var e : ordered) {
            TmshNode p = e.getValue();
            String pool = config.poolOf(name(p.key()), wanted.get(p));
            if (pool == null) {
                o.unsupported(
                        p,
                        "pool " + name(p.key()) + " (" + wanted.get(p)
                                + ") was not imported (see its lines); left out");
                continue;
            }
            int ratio = 1;
            for (TmshNode prop : p.childrenOrEmpty()) {
                if (prop.key().equals("ratio")) {
                    Long v = number(prop.value(), 0, 1_000_000);
                    if (v == null) {
                        o.different(prop, "ratio " + prop.value() + " is not 0..1000000; 1");
                    } else {
                        ratio = v.intValue();
                    }
                } else if (!prop.key().equals("order")) {
                    o.unsupported(
                            prop, "pool " + pool + ": " + String.join(" ", prop.words()) + ": no counterpart here");
                }
            }
            choices.add(ratio == 1 ? pool : F5Values.entry("name", pool, "ratio", ratio));
            o.mapped(p, "pool " + pool + (ratio == 1 ? "" : " ratio " + ratio));
        }
        if (choices.isEmpty() || names.isEmpty()) {
            o.unsupported(choices.isEmpty() ? "no pool could be imported: not written" : "no name could be written");
            o.rest();
            return;
        }
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("pools", choices);
        TmshNode mode = o.get("pool-lb-mode");
        String pm = mode == null ? "round-robin" : mode.value();
        if (!Set.of("round-robin", "ratio", "topology", "global-availability").contains(pm)) {
            o.different(
                    mode,
                    "pool-lb-mode " + pm + ": pools are chosen here by global-availability, round-robin,"
                            + " ratio or topology; written as round-robin");
            pm = "round-robin";
        } else if (mode != null) {
            o.mapped(mode, "pool-lb-mode " + pm);
        }
        if (choices.size() > 1) {
            w.put("pool-method", pm);
        }
        TmshNode persistence = o.get("persistence");
        TmshNode persistTtl = o.get("ttl-persistence");
        if (persistence != null && persistence.value().equals("enabled")) {
            Long given = persistTtl == null ? Long.valueOf(3600) : number(persistTtl.value(), 0, MAX_TTL);
            if (given == null) {
                o.different(persistTtl, "ttl-persistence " + persistTtl.value() + " is not a number of seconds: 3600");
            }
            long ttl = given == null ? 3600 : given;
            w.put("persistence-ttl", Math.max(1, Math.min(ttl, 7 * 86_400)) + "s");
            persistence(o, persistence);
            if (ttl > 7 * 86_400) {
                o.different(persistence, "ttl-persistence " + ttl + ": ours keeps at most 7d");
            } else {
                o.mapped(persistence, "persistence, " + ttl + " s");
            }
        } else if (persistTtl != null) {
            o.mapped(persistTtl, "ttl-persistence without persistence enabled: off");
        }
        for (String v : List.of("ipv4", "ipv6")) {
            TmshNode cidr = o.get("persist-cidr-" + v);
            if (cidr == null) {
                continue;
            }
            String key = "persistence-prefix-" + (v.equals("ipv4") ? "v4" : "v6");
            Long bits = number(cidr.value(), 1, v.equals("ipv4") ? 32 : 128);
            if (bits == null) {
                o.unsupported(cidr, "persist-cidr-" + v + " " + cidr.value() + " is not a prefix length");
                continue;
            }
            Object had = config.loadBalancing.putIfAbsent(key, bits.intValue());
            o.different(
                    cidr,
                    "persist-cidr-" + v + " " + cidr.value()
                            + ": ours is one prefix for every wide IP (load-balancing: " + key + ")"
                            + (had == null ? "" : "; kept " + had));
        }
        TmshNode last = o.get("last-resort-pool");
        if (last != null && !last.value().isEmpty() && !last.value().equals("none")) {
            String lp = name(last.words().getLast());
            if (config.pools.containsKey(lp)) {
                w.put("last-resort", lp);
                o.mapped(last, "last-resort-pool -> last-resort " + lp);
            } else {
                o.unsupported(last, "last-resort-pool " + lp + " was not imported");
            }
        }
        TmshNode failure = o.get("failure-rcode-response");
        TmshNode rcode = o.get("failure-rcode");
        TmshNode failureTtl = o.get("failure-rcode-ttl");
        if (failure != null && failure.value().equals("enabled")) {
            String rc = rcode == null ? "noerror" : rcode.value().replace("-", "");
            if (Set.of("noerror", "nxdomain", "refused", "servfail").contains(rc)) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("rcode", rc);
                if (failureTtl != null && number(failureTtl.value(), 0, MAX_TTL) != null) {
                    f.put("ttl", failureTtl.value() + "s");
                }
                w.put("failure", f);
                o.mapped(failure, "failure-rcode " + rc);
            } else {
                o.unsupported(rcode, "failure-rcode " + rc + ": ours answers noerror, nxdomain, refused or servfail");
            }
        }
        TmshNode verbosity = o.get("load-balancing-decision-log-verbosity");
        if (verbosity != null
                && (!verbosity.items().isEmpty() || !verbosity.value().isBlank())
                && !verbosity.value().equals("none")) {
            w.put("decision-log", true);
            o.different(verbosity, "load-balancing-decision-log-verbosity: decision-log: true (ours logs every step)");
        }
        TmshNode rules = o.get("rules");
        if (rules != null) {
            o.unsupported(rules, "rules (iRules): not run here; what they do must be done another way");
        }
        if (o.disabled()) {
            o.different("disabled on F5: imported in service");
        }
        for (String one : names) {
            Map<String, Object> had = config.wideIps.get(one.toLowerCase(Locale.ROOT));
            if (had != null) { // an A and an AAAA wide IP of one name: one wide IP here, the pools of both
                @SuppressWarnings("unchecked")
                List<Object> p = (List<Object>) had.get("pools");
                p.addAll(choices);
                if (p.size() > 1) {
                    had.putIfAbsent("pool-method", pm);
                }
                o.different("wide IP " + one + " was imported already (the other type's wide IP, or an alias): one wide"
                        + " IP here, its pools after the first's; a pool answers only its members' type; the first's"
                        + " settings hold");
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", one);
            entry.putAll(w);
            entry.put("pools", new ArrayList<>(choices));
            config.wideIps.put(one.toLowerCase(Locale.ROOT), entry);
            config.wideIpLines.put(one, o.line());
        }
        o.mapped("wide IP " + wName + " (" + type + ")");
        o.rest();
    }

    /**
     * F5 keeps persistence per LDNS address (persist-cidr 32 and 128 by default), ours per /24 and
     * /56: F5's are written unless a wide IP gives its own (one pair for every wide IP here).
     */
    private void persistence(F5Object o, TmshNode at) {
        for (String v : List.of("ipv4", "ipv6")) {
            if (o.node.childrenOrEmpty().stream().noneMatch(c -> c.key().equals("persist-cidr-" + v))
                    && config.loadBalancing.putIfAbsent(
                                    "persistence-prefix-" + (v.equals("ipv4") ? "v4" : "v6"),
                                    v.equals("ipv4") ? 32 : 128)
                            == null) {
                o.mapped(
                        at,
                        "persistence per " + v + " address (F5's persist-cidr-" + v + " "
                                + (v.equals("ipv4") ? 32 : 128) + "): load-balancing: persistence-prefix-"
                                + (v.equals("ipv4") ? "v4" : "v6") + ", for every wide IP");
            }
        }
    }

    /** A name ours can serve: a domain name, its first label alone may be "*". */
    private static boolean wildcard(F5Object o, TmshNode at, String name) {
        String rest = name.startsWith("*.") ? name.substring(2) : name;
        if (rest.contains("*") || rest.contains("?") || name.contains("?")) {
            o.unsupported(at, name + ": ours takes a wildcard only as a whole first label (*.example.com)");
            return false;
        }
        if (!name.matches("[A-Za-z0-9_*.-]{1,253}")) {
            o.unsupported(at, name + ": a wide IP's name here is letters, digits, '-', '_' and '.' (and '*.' first)");
            return false;
        }
        try {
            if (Name.fromString(rest, Name.root).labels() < 3) {
                o.unsupported(at, name + ": ours serves names of two labels or more (example.com)");
                return false;
            }
            return true;
        } catch (TextParseException e) {
            o.unsupported(at, name + " is not a domain name: " + e.getMessage());
            return false;
        }
    }
}
