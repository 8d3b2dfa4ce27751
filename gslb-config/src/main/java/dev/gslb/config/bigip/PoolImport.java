package dev.gslb.config.bigip;

import static dev.gslb.config.bigip.F5Values.MAX_TTL;
import static dev.gslb.config.bigip.F5Values.address;
import static dev.gslb.config.bigip.F5Values.name;
import static dev.gslb.config.bigip.F5Values.number;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.wideip.CnameMembers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * F5's {@code gtm pool a|aaaa|cname}: members in member-order (a member's ratio set on its virtual
 * server), the three methods with F5's defaults written out, and the pool's settings.
 */
final class PoolImport {
    private final ImportReport report;
    private final ImportedConfig config;
    private final MonitorImport monitorImport;

    PoolImport(ImportReport report, ImportedConfig config, MonitorImport monitorImport) {
        this.report = report;
        this.config = config;
        this.monitorImport = monitorImport;
    }

    private static final MethodRegistry METHODS = new MethodRegistry(MethodRegistry.Services.UNBOUND);

    private static final Set<String> PATH_METRIC =
            Set.of("lowest-round-trip-time", "completion-rate", "fewest-hops", "quality-of-service");

    /** F5 load-balancing modes and ours. */
    private static final Map<String, String> MODES = Map.ofEntries(
            Map.entry("round-robin", "round-robin"),
            Map.entry("ratio", "ratio"),
            Map.entry("topology", "topology"),
            Map.entry("global-availability", "global-availability"),
            Map.entry("static-persistence", "static-persistence"),
            Map.entry("fallback-ip", "fallback-ip"),
            Map.entry("drop-packet", "drop-packet"),
            Map.entry("return-to-dns", "return-to-dns"),
            Map.entry("none", "none"),
            Map.entry("lowest-round-trip-time", "lowest-round-trip-time"),
            Map.entry("round-trip-time", "lowest-round-trip-time"),
            Map.entry("completion-rate", "completion-rate"),
            Map.entry("fewest-hops", "fewest-hops"),
            Map.entry("hops", "fewest-hops"),
            Map.entry("quality-of-service", "quality-of-service"),
            Map.entry("least-connections", "least-connections"),
            Map.entry("packet-rate", "packet-rate"),
            Map.entry("kilobytes-per-second", "kilobytes-per-second"),
            Map.entry("cpu", "cpu"),
            Map.entry("virtual-server-capacity", "vs-capacity"),
            Map.entry("vs-capacity", "vs-capacity"),
            Map.entry("virtual-server-score", "vs-score"),
            Map.entry("vs-score", "vs-score"));

    /** F5 QoS coefficients (pool {@code qos-*}) and ours, with the default both share. */
    private static final Map<String, String> QOS = Map.of(
            "qos-rtt", "rtt",
            "qos-hit-ratio", "completion-rate",
            "qos-hops", "hops",
            "qos-topology", "topology",
            "qos-lcs", "link-capacity",
            "qos-vs-capacity", "vs-capacity",
            "qos-packet-rate", "packet-rate",
            "qos-kilobytes-second", "kilobytes-per-second",
            "qos-vs-score", "vs-score");

    private static final Map<String, Integer> QOS_DEFAULTS = Map.of(
            "rtt", 50,
            "completion-rate", 5,
            "hops", 0,
            "topology", 0,
            "link-capacity", 30,
            "vs-capacity", 0,
            "packet-rate", 1,
            "kilobytes-per-second", 3,
            "vs-score", 0);

    void pool(TmshNode n) {
        boolean typed = n.words().size() >= 4;
        String type = typed ? n.word(2) : "a";
        String f5Name = name(n.word(typed ? 3 : 2));
        F5Object o = new F5Object(n, "pool", f5Name, report);
        if (!Set.of("a", "aaaa", "cname").contains(type)) {
            o.unsupported("pool type " + type + ": ours answers A, AAAA and CNAME pools");
            return;
        }
        boolean cname = type.equals("cname");
        String ourName = f5Name; // another type's pool of this name: NAME-TYPE (then NAME-TYPE-2, ...)
        for (int k = 1; config.pools.containsKey(ourName); k++) {
            ourName = f5Name + "-" + type + (k == 1 ? "" : "-" + k);
        }
        if (config.poolTypes.containsKey(type + " " + f5Name)) {
            o.unsupported("pool " + type + " " + f5Name + " is defined already: the first is kept");
            return;
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("name", ourName);
        if (cname) {
            p.put("type", "cname");
        }
        List<Object> members = new ArrayList<>();
        List<Map.Entry<Long, TmshNode>> ordered = new ArrayList<>();
        for (TmshNode m : o.block("members")) {
            long order = ordered.size();
            for (TmshNode prop : m.childrenOrEmpty()) {
                if (prop.key().equals("member-order")) {
                    try {
                        order = Long.parseLong(prop.value());
                    } catch (NumberFormatException e) {
                        report.different(
                                "pool",
                                f5Name,
                                prop.line(),
                                "member-order " + prop.value() + " is not a number; listing order kept");
                    }
                }
            }
            ordered.add(Map.entry(order, m));
        }
        ordered.sort(Map.Entry.comparingByKey()); // stable: equal orders keep the listing order
        List<String> memberVs = new ArrayList<>();
        for (var e : ordered) {
            Object member = member(o, e.getValue(), cname, memberVs);
            if (member != null) {
                members.add(member);
            }
        }
        if (members.isEmpty()) {
            o.unsupported("no member could be imported: the pool is not written, and wide IPs naming it go without it");
            o.rest();
            return;
        }
        p.put("members", members);
        methods(o, p, cname);
        TmshNode ttl = o.get("ttl");
        if (ttl != null && number(ttl.value(), 0, MAX_TTL) != null) {
            p.put("ttl", ttl.value() + "s");
            o.mapped(ttl, "ttl " + ttl.value());
        } else if (ttl != null) {
            o.unsupported(ttl, "ttl " + ttl.value() + " is not a number of seconds: the wide IP's TTL");
        }
        if (!cname) {
            addressPoolKeys(o, p, memberVs);
        }
        if (o.disabled()) {
            o.different("disabled on F5: imported in service; `gslb disable pool " + ourName + "` after start");
        }
        config.pools.put(ourName, p);
        config.poolTypes.put(type + " " + f5Name, ourName);
        o.mapped("pool " + ourName + (cname ? " (CNAME)" : "") + " of " + members.size() + " members");
        o.rest();
    }

    /** A pool member: our virtual server's name (its ratio set on it), or a CNAME pool's {@code {name, ratio}}. */
    private Object member(F5Object pool, TmshNode m, boolean cname, List<String> memberVs) {
        F5Object o = new F5Object(m, "pool", pool.name, report);
        o.get("member-order");
        TmshNode ratio = o.get("ratio");
        Integer r = null;
        if (ratio != null) {
            Long v = number(ratio.value(), 0, 1_000_000);
            if (v == null) {
                o.unsupported(ratio, "ratio " + ratio.value() + " is not 0..1000000; 1");
            } else {
                r = v.intValue();
            }
        }
        if (o.disabled()) {
            o.different("member " + m.key() + " disabled on F5: imported in service; disable its server after start");
        }
        Object out;
        if (cname) {
            TmshNode fixed = o.get("static-target");
            String target = m.key();
            if (!target.matches("[A-Za-z0-9_.-]{1,253}")) {
                o.unsupported("member " + target + " is not a host name (letters, digits, '-', '_', '.')");
                o.rest();
                return null;
            }
            if (fixed == null || !fixed.value().equals("yes")) {
                o.different(
                        "member " + target + " (static-target no): answered as a CNAME whatever its health (F5 checks"
                                + " the wide IP it names when that wide IP is its own)");
            }
            try {
                Name.fromString(target, Name.root);
            } catch (TextParseException e) {
                o.unsupported("member " + target + " is not a domain name");
                o.rest();
                return null;
            }
            out = r == null || r == 1 ? target : F5Values.entry("name", target, "ratio", r);
            o.mapped("member " + target + (r == null ? "" : " ratio " + r));
        } else {
            String ref = m.key();
            int colon = ref.indexOf(':');
            String key = colon < 0 ? null : name(ref.substring(0, colon)) + ":" + name(ref.substring(colon + 1));
            Map<String, Object> vs = key == null ? null : config.virtualServers.get(key);
            if (vs == null) {
                o.unsupported("member " + ref + " is no imported virtual server (SERVER:VS); left out");
                o.rest();
                return null;
            }
            if (r != null) {
                Object had = vs.get("ratio");
                if (had != null && !had.equals(r)) {
                    o.different(
                            ratio,
                            "ratio " + r + ": ours has one ratio per virtual server, and " + vs.get("name")
                                    + " already has " + had + " from another pool; kept " + had);
                } else {
                    if (r != 1) {
                        vs.put("ratio", r);
                    }
                    o.mapped(ratio, "ratio " + r + " -> " + vs.get("name") + " ratio (ours is per virtual server)");
                }
            }
            memberVs.add(key);
            out = vs.get("name");
            o.mapped("member " + ref + " -> " + out);
        }
        o.rest();
        return out;
    }

    /** The three tiers; F5's defaults (round-robin, round-robin, return-to-dns) written out. */
    private void methods(F5Object o, Map<String, Object> p, boolean cname) {
        String[] keys = {"load-balancing-mode", "alternate-mode", "fallback-mode"};
        String[] ours = {"preferred", "alternate", "fallback"};
        String[] defaults = {"round-robin", "round-robin", "return-to-dns"};
        for (int t = 0; t < 3; t++) {
            TmshNode n = o.get(keys[t]);
            String f5 = n == null ? defaults[t] : n.value();
            String m = MODES.get(f5);
            String at = keys[t] + " " + f5 + (n == null ? " (F5's default)" : "");
            if (m == null) {
                m = t == 0 ? "round-robin" : "none";
                different(o, n, at + ": no such method here; written as " + m);
            } else if (cname && !CnameMembers.METHODS.contains(m)) {
                String instead = t == 0 ? "round-robin" : "none";
                different(
                        o,
                        n,
                        at + ": a CNAME pool here chooses by " + CnameMembers.METHODS + "; written as " + instead);
                m = instead;
            } else if (t == 1 && PATH_METRIC.contains(m)) {
                different(o, n, at + ": the alternate never reads paths (F5's rule too); written as topology");
                m = "topology";
            } else if (!METHODS.create(m, MethodSettings.DEFAULTS).readsLoad().isEmpty()) {
                different(
                        o,
                        n,
                        at + ": " + m + " reads each member's load from a source under virtual-servers: load:"
                                + " (F5 reads it from its BIG-IP agents); written as none, which passes to the next tier as F5"
                                + " does without figures; give the members load: and set " + ours[t] + ": " + m);
                m = "none";
            } else if (m.equals("vs-score")) {
                different(
                        o,
                        n,
                        at + ": vs-score reads each virtual server's score:, set here by you (F5 takes it from"
                                + " LTM)");
            } else if (n != null) {
                o.mapped(n, at + " -> " + ours[t] + ": " + m);
            } else {
                o.mapped(at + " -> " + ours[t] + ": " + m);
            }
            p.put(ours[t], m);
        }
    }

    private static void different(F5Object o, TmshNode n, String what) {
        if (n == null) {
            o.different(what);
        } else {
            o.different(n, what);
        }
    }

    private void addressPoolKeys(F5Object o, Map<String, Object> p, List<String> memberVs) {
        List<String> fallback = new ArrayList<>();
        for (String key : List.of("fallback-ip", "fallback-ipv4", "fallback-ipv6")) {
            TmshNode f = o.get(key);
            if (f == null) {
                continue;
            }
            String v = f.value();
            if (v.equals("any") || v.equals("any6") || v.equals("0.0.0.0") || v.equals("::")) {
                o.mapped(f, key + " " + v + ": none");
            } else if (address(v) != null) {
                fallback.add(v);
                o.mapped(f, key + " " + v);
            } else {
                o.unsupported(f, key + " " + v + " is not an address");
            }
        }
        if (!fallback.isEmpty()) {
            p.put("fallback-ip", fallback);
        }
        TmshNode max = o.get("max-answers-returned");
        if (max != null) {
            try {
                Long given = number(max.value(), 1, 1_000_000);
                if (given == null) {
                    throw new NumberFormatException();
                }
                int v = given.intValue();
                p.put("max-answers", Math.min(16, v));
                if (v > 16) {
                    o.different(max, "max-answers-returned " + v + ": ours answers at most 16");
                } else {
                    o.mapped(max, "max-answers-returned " + v);
                }
            } catch (NumberFormatException e) {
                o.unsupported(max, "max-answers-returned " + max.value() + " is not a number from 1");
            }
        }
        Map<String, Object> qos = new LinkedHashMap<>();
        for (var e : QOS.entrySet()) {
            TmshNode q = o.get(e.getKey());
            if (q == null) {
                continue;
            }
            try {
                int v = Integer.parseInt(q.value());
                if (v < 0 || v > 10_000) {
                    throw new NumberFormatException();
                }
                if (v != QOS_DEFAULTS.get(e.getValue())) {
                    qos.put(e.getValue(), v);
                }
                o.mapped(q, e.getKey() + " " + v + " -> qos " + e.getValue());
            } catch (NumberFormatException x) {
                o.unsupported(q, e.getKey() + " " + q.value() + " is not 0..10000");
            }
        }
        if (!qos.isEmpty()) {
            p.put("qos", new TreeMap<>(qos));
        }
        TmshNode mode = o.get("min-members-up-mode");
        TmshNode value = o.get("min-members-up-value");
        String upMode = mode == null ? "off" : mode.value();
        if (!upMode.equals("off")) {
            int members = ((List<?>) p.get("members")).size();
            Long given = value == null ? null : number(value.value(), 0, upMode.equals("percent") ? 100 : 1_000_000);
            if (given == null) {
                o.unsupported(mode, "min-members-up-mode " + upMode + " without a min-members-up-value we read: off");
            } else {
                // F5: a pool with fewer members up is unavailable, and the wide IP goes on to its next pool
                long need = upMode.equals("percent") ? (given * members + 99) / 100 : given;
                p.put("min-up-members", (int) Math.min(need, members));
                p.put("min-up-action", "next-pool");
                if (upMode.equals("percent")) {
                    o.different(
                            mode,
                            "min-members-up " + given + " percent: min-up-members " + Math.min(need, members)
                                    + " of its " + members + " members (a count here)");
                } else if (need > members) {
                    o.different(
                            mode, "min-members-up " + need + " is more than the " + members + " members: " + members);
                } else {
                    o.mapped(mode, "min-members-up " + need + " -> min-up-members, next pool when fewer are up");
                }
            }
        } else if (mode != null) {
            o.mapped(mode, "min-members-up-mode off");
        }
        TmshNode manual = o.get("manual-resume");
        if (manual != null && manual.value().equals("enabled")) {
            config.manualResumeMonitors.addAll(memberVs);
            o.different(
                    manual,
                    "manual-resume: ours holds a server its monitor took down (manual-resume on the monitor);"
                            + " the members' monitors are written again with manual-resume, for these servers in every pool");
        } else if (manual != null) {
            o.mapped(manual, "manual-resume " + manual.value());
        }
        TmshNode rule = o.get("monitor");
        if (rule != null) {
            List<String> extra = monitorImport.rule(o, rule);
            for (String key : memberVs) {
                @SuppressWarnings("unchecked")
                List<String> had = (List<String>)
                        config.virtualServers.get(key).computeIfAbsent("monitors", k -> new ArrayList<String>());
                for (String m : extra) {
                    String at = config.checkAt(m, config.vsPorts.getOrDefault(key, 0));
                    if (!had.contains(at)) {
                        had.add(at);
                    }
                }
            }
            if (!extra.isEmpty()) {
                o.different(
                        rule, "the pool's monitors are added to its members' own, so they check them in every pool");
            }
        }
        TmshNode verify = o.get("verify-member-availability");
        if (verify != null && verify.value().equals("disabled")) {
            o.unsupported(verify, "verify-member-availability disabled: ours always answers by health");
        } else if (verify != null) {
            o.mapped(verify, "verify-member-availability " + verify.value());
        }
    }
}
