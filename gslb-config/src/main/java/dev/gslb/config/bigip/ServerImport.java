package dev.gslb.config.bigip;

import static dev.gslb.config.bigip.F5Values.NAME;
import static dev.gslb.config.bigip.F5Values.address;
import static dev.gslb.config.bigip.F5Values.hostPort;
import static dev.gslb.config.bigip.F5Values.name;
import static dev.gslb.config.bigip.F5Values.number;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * F5's data centers, links, servers and their virtual servers, with the monitors each names and
 * the virtual servers each depends on.
 */
final class ServerImport {
    private final ImportReport report;
    private final ImportedConfig config;
    private final MonitorImport monitorImport;

    /** Each virtual server's depends-on as written ("server:vs" -> references), resolved after every server. */
    private final Map<String, Dependency> dependencies = new LinkedHashMap<>();

    /** Our virtual server names and their "server:vs" keys, made once cycles are looked for. */
    private final Map<String, String> keys = new HashMap<>();

    private record Dependency(F5Object on, TmshNode at, String server, List<String> refs) {}

    ServerImport(ImportReport report, ImportedConfig config, MonitorImport monitorImport) {
        this.report = report;
        this.config = config;
        this.monitorImport = monitorImport;
    }

    void dataCenter(TmshNode n) {
        F5Object o = new F5Object(n, "datacenter", name(n.word(2)), report);
        if (o.disabled()) {
            o.different("disabled on F5: imported in service; `gslb disable datacenter " + o.name + "` after start");
        }
        config.dataCenters.add(o.name);
        o.mapped("data center " + o.name);
        o.rest();
    }

    private String dataCenterOf(F5Object o) {
        TmshNode dc = o.get("datacenter");
        if (dc == null || !config.dataCenters.contains(name(dc.value()))) {
            o.unsupported((dc == null ? "no datacenter" : "data center " + name(dc.value()) + " is not defined")
                    + ": not imported");
            return null;
        }
        return name(dc.value());
    }

    void link(TmshNode n) {
        F5Object o = new F5Object(n, "link", name(n.word(2)), report);
        String dc = dataCenterOf(o);
        if (dc == null) {
            return; // the object is not imported: its one line says so
        }
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("name", o.name);
        l.put("datacenter", dc);
        for (String dir : List.of("inbound", "outbound")) {
            TmshNode limit = o.get("limit-max-" + dir + "-bps");
            TmshNode status = o.get("limit-max-" + dir + "-bps-status");
            if (limit != null && number(limit.value(), 1, Long.MAX_VALUE) == null) {
                o.unsupported(limit, "limit-max-" + dir + "-bps " + limit.value() + " is not a number of bit/s");
            } else if (limit != null && status != null && status.value().equals("enabled")) {
                l.put(dir.equals("inbound") ? "limit-in" : "limit-out", limit.value() + "bit");
                o.different(
                        limit,
                        "limit-max-" + dir + "-bps " + limit.value() + ": F5 reads the link's traffic itself;"
                                + " give the link traffic: (an interface or SNMP), or it never spills");
            } else if (limit != null) {
                o.mapped(limit, "limit-max-" + dir + "-bps not enabled: no limit");
            }
        }
        List<String> gateways = new ArrayList<>();
        TmshNode routers = o.get("router-addresses");
        if (routers != null) {
            for (TmshNode r : routers.childrenOrEmpty()) {
                for (String a : r.words()) {
                    if (address(a) != null) {
                        gateways.add(a);
                    } else {
                        o.unsupported(r, "router address " + a + " is not an address");
                    }
                }
            }
        }
        TmshNode rule = o.get("monitor");
        List<String> linkMonitors = rule == null ? List.of() : monitorImport.rule(o, rule);
        linkMonitors = linkMonitors.stream()
                .filter(m ->
                        Set.of("icmp", "tcp").contains(config.monitors.get(m).get("type")))
                .toList();
        if (!gateways.isEmpty() && !linkMonitors.isEmpty()) {
            l.put("gateways", gateways);
            l.put("monitors", linkMonitors);
            o.mapped(routers, "router-addresses -> gateways " + gateways);
        } else if (!gateways.isEmpty()) {
            o.different(
                    routers,
                    "router-addresses " + gateways + " not written: ours checks gateways with an icmp or"
                            + " tcp monitor and this link has none; add monitors: and gateways:");
        }
        if (o.disabled()) {
            o.different("disabled on F5: imported in service; `gslb disable link " + o.name + "` after start");
        }
        config.links.put(o.name, l);
        o.mapped("link " + o.name + " in " + dc);
        o.rest();
    }

    void server(TmshNode n) {
        F5Object o = new F5Object(n, "server", name(n.word(2)), report);
        String dc = dataCenterOf(o);
        if (dc == null) {
            return; // the object is not imported: its one line says so
        }
        TmshNode addresses = o.get("addresses");
        addresses = addresses != null
                ? addresses
                : o.get("devices"); // v13 and later: devices { NAME { addresses { ... } } }
        if (addresses != null) {
            o.different(
                    addresses,
                    "addresses: the server itself is not an object here; its virtual servers are"
                            + " (each checked at its own address)");
        }
        TmshNode product = o.get("product");
        if (product != null) {
            o.mapped(product, "product " + product.value());
        }
        TmshNode discovery = o.get("virtual-server-discovery");
        if (discovery != null && !discovery.value().equals("disabled")) {
            o.unsupported(
                    discovery,
                    "virtual-server-discovery " + discovery.value()
                            + ": only the virtual servers listed here are imported (list them all)");
        } else if (discovery != null) {
            o.mapped(discovery, "virtual-server-discovery disabled");
        }
        TmshNode rule = o.get("monitor");
        List<String> serverMonitors = rule == null ? List.of() : monitorImport.rule(o, rule);
        limits(o);
        boolean disabled = o.disabled();
        if (disabled) {
            o.different(
                    "disabled on F5: its virtual servers are imported in service; `gslb disable vs NAME` after start");
        }
        for (TmshNode v : o.block("virtual-servers")) {
            virtualServer(v, o.name, dc, serverMonitors);
        }
        o.mapped("server " + o.name + " in " + dc);
        o.rest();
    }

    private static void limits(F5Object o) {
        for (TmshNode c : o.node.childrenOrEmpty()) {
            if (c.key().startsWith("limit-")) {
                o.get(c.key());
                if (c.key().endsWith("-status") || c.value().equals("0")) {
                    continue;
                }
                o.unsupported(
                        c,
                        c.key() + " " + c.value() + ": a limit here needs where the server's load is read"
                                + " (virtual-servers: load:, and limits:); F5 reads it from its own agents");
            }
        }
    }

    private void virtualServer(TmshNode v, String server, String dc, List<String> serverMonitors) {
        String f5Name = name(v.key());
        String key = server + ":" + f5Name;
        F5Object o = new F5Object(v, "virtual-server", key, report);
        if (!NAME.matcher(f5Name).matches() || config.virtualServers.containsKey(key)) {
            o.unsupported(
                    config.virtualServers.containsKey(key)
                            ? "defined twice: the first is kept"
                            : "not a name: not read");
            return;
        }
        TmshNode destination = o.get("destination");
        if (destination == null) {
            o.unsupported("no destination: not imported");
            o.rest();
            return;
        }
        String[] hostPort = hostPort(destination.value());
        InetAddress address = address(hostPort[0]);
        Integer port = F5Values.port(hostPort[1]);
        if (address == null || port == null) {
            o.unsupported(destination, "destination " + destination.value() + " is not ADDRESS:PORT; not imported");
            o.rest();
            return;
        }
        Map<String, Object> vs = new LinkedHashMap<>();
        boolean clash = config.vsNames.contains(f5Name);
        if (clash && config.vsNames.contains(key)) {
            o.unsupported(destination, "its names " + f5Name + " and " + key + " are both taken already; not imported");
            o.rest();
            return;
        }
        vs.put("name", clash ? key : f5Name);
        vs.put("address", hostPort[0]);
        vs.put("datacenter", dc);
        o.mapped(
                destination,
                "destination " + destination.value() + " -> " + vs.get("name") + " " + hostPort[0]
                        + (clash ? " (named server:vs: another server has a virtual server " + f5Name + ")" : ""));
        TmshNode linkName = o.get("explicit-link-name");
        if (linkName != null && !linkName.value().equals("none")) {
            Map<String, Object> link = config.links.get(name(linkName.value()));
            if (link != null && dc.equals(link.get("datacenter"))) {
                vs.put("link", name(linkName.value()));
                o.mapped(linkName, "explicit-link-name -> link " + vs.get("link"));
            } else {
                o.unsupported(linkName, "link " + name(linkName.value()) + " is not a link of " + dc);
            }
        }
        TmshNode rule = o.get("monitor");
        List<String> own = rule == null ? List.of() : monitorImport.rule(o, rule);
        List<String> checks = rule == null ? serverMonitors : own;
        if (rule == null && !serverMonitors.isEmpty()) {
            o.mapped("monitors " + serverMonitors + " of server " + server + " (a virtual server without its own takes"
                    + " its server's, as on F5), checking " + hostPort[0]);
        }
        TmshNode ta = o.get("translation-address");
        TmshNode tp = o.get("translation-port");
        Integer checked = port; // 0: F5's "*", no port
        if (tp != null && F5Values.port(tp.value()) != null && F5Values.port(tp.value()) != 0) {
            checked = F5Values.port(tp.value());
            o.mapped(tp, "translation-port " + tp.value() + ": its monitors check port " + checked);
        } else if (tp != null && F5Values.port(tp.value()) == null) {
            o.unsupported(tp, "translation-port " + tp.value() + " is not a port");
        }
        if (!checks.isEmpty()) {
            // F5's "*:*" monitors check this server's port: here a copy of the monitor with that port
            List<String> at = new ArrayList<>();
            for (String m : checks) {
                at.add(config.checkAt(m, checked));
            }
            vs.put("monitors", at);
        }
        config.vsPorts.put(key, checked);
        if (ta != null && !ta.value().equals("none") && !ta.value().equals("::") && address(ta.value()) != null) {
            vs.put("translation", ta.value());
            o.mapped(ta, "translation-address " + ta.value() + ": its monitors check it there");
        } else if (ta != null && !ta.value().equals("none") && !ta.value().equals("::")) {
            o.unsupported(ta, "translation-address " + ta.value() + " is not an address");
        }
        TmshNode dep = o.get("depends-on");
        if (dep != null && dep.value().equals("none")) {
            o.mapped(dep, "depends-on none");
        } else if (dep != null) { // resolved once every server is read: F5 may name one listed later
            dependencies.put(key, new Dependency(o, dep, server, dep.isBlock() ? depItems(dep) : List.of(dep.value())));
        }
        limits(o);
        if (o.disabled()) {
            o.different("disabled on F5: imported in service; `gslb disable vs " + vs.get("name") + "` after start");
        }
        config.virtualServers.put(key, vs);
        config.vsNames.add((String) vs.get("name"));
        o.rest();
    }

    /**
     * Each virtual server's depends-on, by our names; a reference to no imported server, or one
     * closing a cycle (which our configuration refuses, and which would keep them all down), is
     * left out with a line.
     */
    @SuppressWarnings("unchecked")
    void dependencies() {
        for (var e : dependencies.entrySet()) {
            Dependency d = e.getValue();
            List<String> on = new ArrayList<>();
            for (String ref : d.refs()) {
                String target = dependency(ref, d.server());
                if (target == null) {
                    d.on().unsupported(d.at(), "depends-on " + ref + ": not an imported virtual server; left out");
                } else if (!on.contains(target)) {
                    on.add(target);
                }
            }
            if (!on.isEmpty()) {
                config.virtualServers.get(e.getKey()).put("depends-on", on);
                d.on().mapped(d.at(), "depends-on " + on);
            }
        }
        Map<String, Map<String, Object>> byName = new HashMap<>();
        config.virtualServers.values().forEach(v -> byName.put((String) v.get("name"), v));
        Map<String, Integer> state = new HashMap<>(); // absent: not seen; 1: on the path; 2: done
        for (String start : byName.keySet()) {
            java.util.ArrayDeque<String> path = new java.util.ArrayDeque<>();
            java.util.ArrayDeque<java.util.Iterator<String>> next = new java.util.ArrayDeque<>();
            if (state.containsKey(start)) {
                continue;
            }
            state.put(start, 1);
            path.push(start);
            next.push(
                    new ArrayList<>((List<String>) byName.get(start).getOrDefault("depends-on", List.of())).iterator());
            while (!path.isEmpty()) { // iterative: a long chain must not overflow the stack
                if (!next.peek().hasNext()) {
                    state.put(path.pop(), 2);
                    next.pop();
                    continue;
                }
                String v = next.peek().next();
                Integer seen = state.get(v);
                if (seen == null) {
                    state.put(v, 1);
                    path.push(v);
                    next.push(new ArrayList<>((List<String>) byName.get(v).getOrDefault("depends-on", List.of()))
                            .iterator());
                } else if (seen == 1) { // closes a cycle
                    String from = path.peek();
                    List<String> list = (List<String>) byName.get(from).get("depends-on");
                    list.remove(v);
                    if (list.isEmpty()) {
                        byName.get(from).remove("depends-on");
                    }
                    Dependency d = dependencies.values().stream()
                            .filter(x -> x.on().name.equals(keyOf(from)))
                            .findFirst()
                            .orElseThrow();
                    d.on().different(
                                    d.at(),
                                    "depends-on " + v + " closes a cycle of dependencies (each would keep the"
                                            + " others down for good); left out");
                }
            }
        }
    }

    private String keyOf(String ourName) {
        if (keys.isEmpty()) {
            config.virtualServers.forEach((k, v) -> keys.put((String) v.get("name"), k));
        }
        return keys.getOrDefault(ourName, ourName);
    }

    private static List<String> depItems(TmshNode dep) {
        List<String> out = new ArrayList<>();
        for (TmshNode c : dep.childrenOrEmpty()) {
            out.addAll(c.words());
        }
        return out;
    }

    /** Our name of the virtual server {@code ref} ("server:vs" or "vs" of {@code server}). */
    private String dependency(String ref, String server) {
        int colon = ref.indexOf(':');
        String key = colon < 0
                ? server + ":" + name(ref)
                : name(ref.substring(0, colon)) + ":" + name(ref.substring(colon + 1));
        Map<String, Object> vs = config.virtualServers.get(key);
        return vs == null ? null : (String) vs.get("name");
    }
}
