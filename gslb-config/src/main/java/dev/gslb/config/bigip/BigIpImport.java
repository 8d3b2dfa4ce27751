package dev.gslb.config.bigip;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.wideip.CnameMembers;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * {@code gslb import bigip}: an F5 BIG-IP DNS (GTM) configuration in tmsh syntax
 * ({@code bigip_gtm.conf}, {@code tmsh list gtm}) read into our configuration, a topology file in
 * 3DNS syntax and a report. F5 names are kept, the {@code /Common/} partition taken off (other
 * partitions keep theirs: {@code Tenant/web}). Where F5's default differs from ours it is written
 * out (a pool's methods are F5's round-robin, round-robin, return-to-dns), so the answers are the
 * ones F5 gave. Every object and property gets a line in the report.
 */
public final class BigIpImport {
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

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    /**
     * What the import needs besides the F5 file.
     *
     * @param zones         zone files the operator has, origin -> the path to write under {@code zones:}
     * @param topologyData  the topology lists to write under {@code topology: data:} (ISP and country
     *                      records need them)
     * @param loadedRegions the regions those lists load
     */
    public record Options(Map<Name, String> zones, List<String> topologyData, Set<String> loadedRegions) {
        public Options {
            zones = Map.copyOf(zones);
            topologyData = List.copyOf(topologyData);
            loadedRegions = Set.copyOf(loadedRegions);
        }
    }

    /**
     * The import's outcome.
     *
     * @param config     the configuration's YAML
     * @param topology   the topology file (3DNS syntax) the configuration names, or null
     * @param problem    why there is nothing to serve (no wide IP could be imported), or null; the
     *                   report still says what became of each object
     * @param madeFiles  files made up, to replace: zones for wide IPs no given zone holds, and a stand-in
     *                   (it fails) for each external monitor's program; path in the folder -> text
     */
    public record Result(
            String config, String topology, Map<String, String> madeFiles, ImportReport report, String problem) {}

    static final String TOPOLOGY_FILE = "bigip.topology";

    private final String file;
    private final Options options;
    private final ImportReport report;
    private final TopologyImport topology;

    private final List<String> dataCenters = new ArrayList<>();
    private final Map<String, Map<String, Object>> monitors = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> links = new LinkedHashMap<>();
    /** Ours by F5's "server:vs" (both without partition). */
    private final Map<String, Map<String, Object>> virtualServers = new LinkedHashMap<>();

    private final Map<String, Map<String, Object>> pools = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> wideIps = new LinkedHashMap<>();
    private final Map<String, Object> probe = new LinkedHashMap<>();
    private final Map<String, Object> loadBalancing = new LinkedHashMap<>();
    private final Set<String> manualResumeMonitors = new LinkedHashSet<>();
    private final Map<String, String> madeFiles = new TreeMap<>();
    /** Each virtual server's depends-on as written ("server:vs" -> references), resolved after every server. */
    private final Map<String, Dependency> dependencies = new LinkedHashMap<>();

    private record Dependency(F5Object on, TmshNode at, String server, List<String> refs) {}
    /** Our pool names and their F5 type (a, aaaa, cname): a wide IP names a pool of its type. */
    private final Map<String, String> poolTypes = new HashMap<>();
    /** A port of a server each "*:*" monitor checks (ours needs one written; translation: replaces it). */
    private final Map<String, String> monitorPorts = new HashMap<>();

    private BigIpImport(String file, Options options) {
        this.file = file;
        this.options = options;
        this.report = new ImportReport(file);
        this.topology = new TopologyImport(report, BigIpImport::name, options.loadedRegions());
    }

    /** Reads {@code text} (the contents of {@code file}) and maps it; a syntax error is thrown with its line. */
    public static Result read(String file, String text, Options options) throws TmshException {
        return new BigIpImport(file, options).run(TmshParser.parse(file, text));
    }

    /** {@link #read(String, String, Options)} of a file, refused before it is read when it is larger than the parser takes. */
    public static Result read(java.nio.file.Path file, Options options) throws TmshException, java.io.IOException {
        if (java.nio.file.Files.size(file) > TmshParser.MAX_CHARS) {
            throw new TmshException(
                    file.toString(),
                    1,
                    "larger than " + (TmshParser.MAX_CHARS >> 20) + " MiB (" + java.nio.file.Files.size(file)
                            + " bytes); not read");
        }
        return read(file.toString(), java.nio.file.Files.readString(file), options);
    }

    /** {@code text} as a whole number within {@code min..max}, or null (F5 writes plain decimal numbers). */
    static Long number(String text, long min, long max) {
        if (text == null || !text.matches("-?\\d{1,18}")) {
            return null;
        }
        long v = Long.parseLong(text);
        return v < min || v > max ? null : v;
    }

    /** Names written into our configuration and topology file: F5's characters, nothing that could break either. */
    private static final java.util.regex.Pattern NAME =
            java.util.regex.Pattern.compile("[A-Za-z0-9_.][A-Za-z0-9_.:/@%+*-]{0,254}");

    /** An object whose name can be ours (a topology record or global settings has none); reported when not. */
    private boolean named(TmshNode n) {
        String kind = n.word(1);
        if (kind.equals("topology") || kind.equals("global-settings")) {
            return true;
        }
        int words = Set.of("pool", "wideip").contains(kind)
                ? (n.words().size() == 4 ? 4 : 3)
                : kind.equals("monitor") ? 4 : 3;
        String name = name(n.words().getLast());
        if (n.words().size() != words || !NAME.matcher(name).matches()) {
            report.unsupported(
                    kind,
                    String.join(" ", n.words().subList(2, n.words().size())),
                    n.line(),
                    "expected 'gtm " + kind + (words == 4 ? " TYPE" : "") + " NAME' with a name of letters, digits and"
                            + " . _ - / : @ % + *; not read");
            return false;
        }
        return true;
    }

    /** The largest TTL a DNS answer carries (RFC 2181). */
    private static final long MAX_TTL = Integer.MAX_VALUE;

    /** An F5 name as ours: {@code /Common/web} is web, {@code /Tenant/web} Tenant/web. */
    static String name(String f5) {
        if (f5.startsWith("/Common/")) {
            return f5.substring("/Common/".length());
        }
        return f5.startsWith("/") ? f5.substring(1) : f5;
    }

    private Result run(List<TmshNode> nodes) {
        Map<String, List<TmshNode>> byKind = new LinkedHashMap<>();
        for (TmshNode n : nodes) {
            if (!n.key().equals("gtm") || n.words().size() < 3) {
                report.unsupported(
                        n.key().isEmpty() ? "?" : n.key(),
                        String.join(
                                " ", n.words().subList(0, Math.min(3, n.words().size()))),
                        n.line(),
                        n.key().equals("gtm") ? "expected 'gtm KIND NAME'; not read" : "not a gtm object; not read");
                continue;
            }
            byKind.computeIfAbsent(n.word(1), k -> new ArrayList<>()).add(n);
        }
        // in this order: each kind names only kinds before it (a virtual server's dependencies: see below)
        Map<String, Consumer<TmshNode>> steps = new LinkedHashMap<>();
        steps.put("monitor", this::monitor);
        steps.put("datacenter", this::dataCenter);
        steps.put("link", this::link);
        steps.put("server", this::server);
        steps.put("pool", this::pool);
        steps.put("wideip", this::wideIp);
        steps.put("region", n -> topology.region(n, name(n.word(2))));
        steps.put("topology", n -> topology.record(n, dataCenters::contains, pools::containsKey));
        steps.put("global-settings", this::globalSettings);
        Set<List<String>> seen = new java.util.HashSet<>();
        for (var step : steps.entrySet()) {
            for (TmshNode n : byKind.getOrDefault(step.getKey(), List.of())) {
                if (named(n) && seen.add(n.words())) {
                    step.getValue().accept(n);
                } else if (named(n)) {
                    report.unsupported(
                            n.word(1), name(n.words().getLast()), n.line(), "defined twice: the first is kept");
                }
            }
        }
        topology.finishRegions();
        dependencies();
        for (var e : byKind.entrySet()) {
            if (steps.containsKey(e.getKey())) {
                continue;
            }
            for (TmshNode n : e.getValue()) {
                report.unsupported(
                        e.getKey(),
                        name(n.words().getLast()),
                        n.line(),
                        "gtm " + e.getKey() + " has no counterpart here"
                                + switch (e.getKey()) {
                                    case "rule" -> " (iRules are not run)";
                                    case "prober-pool" -> " (each instance probes from its own data center)";
                                    default -> "";
                                });
            }
        }
        monitorPorts();
        applyManualResume();
        List<Map<String, Object>> zones = zones(madeFiles);
        String problem = wideIps.isEmpty() ? "no wide IP could be imported: there is nothing to serve" : null;
        return new Result(yaml(zones), topology.file(), madeFiles, report, problem);
    }

    // ---------------------------------------------------------------- monitors, data centers, links

    private void monitor(TmshNode n) {
        F5Object o = new F5Object(n, "monitor", name(n.word(3)), report);
        if (monitors.containsKey(o.name)) {
            o.unsupported("a monitor of this name is defined already (of another kind): the first is kept");
            return;
        }
        Map<String, Object> m = MonitorImport.of(o, n.word(2));
        o.rest();
        if (m != null) {
            monitors.put(o.name, m);
            if (m.get("command") instanceof List<?> command) {
                madeFiles.putIfAbsent(
                        "monitor-programs/" + command.getFirst(),
                        "#!/bin/sh\n# A stand-in made by gslb import bigip: copy F5's " + command.getFirst()
                                + " over this file.\n# Until then the monitor fails, so its servers are down.\n"
                                + "echo \"" + command.getFirst()
                                + ": the F5 program was not copied here yet\" >&2\nexit 1\n");
            }
        }
    }

    /** Our monitors for an F5 monitor rule ({@code /Common/http and /Common/tcp}), reported on {@code o}. */
    private List<String> monitorRule(F5Object o, TmshNode rule) {
        List<String> out = new ArrayList<>();
        List<String> words =
                new ArrayList<>(rule.words().subList(1, rule.words().size()));
        words.addAll(rule.items());
        if (words.contains("min") || words.contains("require")) {
            o.different(
                    rule,
                    "monitor '" + String.join(" ", words) + "': ours needs every monitor to pass (F5: at least N)");
        }
        for (String w : words) {
            if (Set.of("and", "min", "of", "require", "from", "none").contains(w) || w.matches("\\d+")) {
                continue;
            }
            String m = name(w);
            if (!monitors.containsKey(m) && MonitorImport.builtIn(m)) {
                monitors.put(m, MonitorImport.builtIn(m, rule.line(), report));
            }
            if (monitors.containsKey(m)) {
                out.add(m);
            } else {
                o.unsupported(
                        rule,
                        "monitor " + m + " is not imported (see its own line, or F5's built-in " + m
                                + " has no counterpart here); not checked by it");
            }
        }
        if (!out.isEmpty()) {
            o.mapped(rule, "monitors " + out);
        }
        return out;
    }

    private void dataCenter(TmshNode n) {
        F5Object o = new F5Object(n, "datacenter", name(n.word(2)), report);
        if (o.disabled()) {
            o.different("disabled on F5: imported in service; `gslb disable datacenter " + o.name + "` after start");
        }
        dataCenters.add(o.name);
        o.mapped("data center " + o.name);
        o.rest();
    }

    private String dataCenterOf(F5Object o) {
        TmshNode dc = o.get("datacenter");
        if (dc == null || !dataCenters.contains(name(dc.value()))) {
            o.unsupported((dc == null ? "no datacenter" : "data center " + name(dc.value()) + " is not defined")
                    + ": not imported");
            return null;
        }
        return name(dc.value());
    }

    private void link(TmshNode n) {
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
        List<String> linkMonitors = rule == null ? List.of() : monitorRule(o, rule);
        linkMonitors = linkMonitors.stream()
                .filter(m -> Set.of("icmp", "tcp").contains(monitors.get(m).get("type")))
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
        links.put(o.name, l);
        o.mapped("link " + o.name + " in " + dc);
        o.rest();
    }

    // ---------------------------------------------------------------- servers and virtual servers

    private void server(TmshNode n) {
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
        List<String> serverMonitors = rule == null ? List.of() : monitorRule(o, rule);
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
        if (!NAME.matcher(f5Name).matches() || virtualServers.containsKey(key)) {
            o.unsupported(
                    virtualServers.containsKey(key) ? "defined twice: the first is kept" : "not a name: not read");
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
        if (address == null || !hostPort[1].equals("*") && number(hostPort[1], 0, 65535) == null) {
            o.unsupported(destination, "destination " + destination.value() + " is not ADDRESS:PORT; not imported");
            o.rest();
            return;
        }
        Map<String, Object> vs = new LinkedHashMap<>();
        boolean clash =
                virtualServers.values().stream().anyMatch(x -> x.get("name").equals(f5Name));
        vs.put("name", clash ? key : f5Name);
        vs.put("address", hostPort[0]);
        vs.put("datacenter", dc);
        o.mapped(
                destination,
                "destination " + destination.value() + " -> " + vs.get("name") + " " + hostPort[0]
                        + (clash ? " (named server:vs: another server has a virtual server " + f5Name + ")" : ""));
        TmshNode linkName = o.get("explicit-link-name");
        if (linkName != null && !linkName.value().equals("none")) {
            Map<String, Object> link = links.get(name(linkName.value()));
            if (link != null && dc.equals(link.get("datacenter"))) {
                vs.put("link", name(linkName.value()));
                o.mapped(linkName, "explicit-link-name -> link " + vs.get("link"));
            } else {
                o.unsupported(linkName, "link " + name(linkName.value()) + " is not a link of " + dc);
            }
        }
        TmshNode rule = o.get("monitor");
        List<String> own = rule == null ? List.of() : monitorRule(o, rule);
        List<String> checks = rule == null ? serverMonitors : own;
        if (rule == null && !serverMonitors.isEmpty()) {
            o.mapped("monitors " + serverMonitors + " of server " + server + " (a virtual server without its own takes"
                    + " its server's, as on F5), checking " + hostPort[0]);
        }
        if (!checks.isEmpty()) {
            vs.put("monitors", new ArrayList<>(checks));
        }
        TmshNode ta = o.get("translation-address");
        TmshNode tp = o.get("translation-port");
        String translation = null;
        if (ta != null && !ta.value().equals("none") && !ta.value().equals("::") && address(ta.value()) != null) {
            translation = ta.value();
        }
        String port = tp != null && !tp.value().equals("0") && !tp.value().equals("*") ? tp.value() : hostPort[1];
        // F5's "*:*" monitors check the server's port; ours check their own port unless translation: gives one
        boolean serverPort = checks.stream().anyMatch(m -> !monitors.get(m).containsKey("port"));
        boolean portMatters = serverPort && !port.equals("*") && !port.equals("0");
        if (portMatters && checks.stream().anyMatch(m -> monitors.get(m).containsKey("port"))) {
            o.different(
                    destination,
                    "monitors " + checks + " mix F5's *:* with fixed ports: ours checks them all at" + " port " + port);
        }
        checks.stream()
                .filter(m -> !monitors.get(m).containsKey("port"))
                .forEach(m -> monitorPorts.putIfAbsent(m, port));
        if (translation != null || portMatters) {
            String a = translation != null ? translation : hostPort[0];
            String t = a.contains(":") ? "[" + a + "]" : a;
            vs.put("translation", portMatters ? t + ":" + port : t);
            o.mapped(
                    ta != null ? ta : destination,
                    "monitors check " + vs.get("translation")
                            + (portMatters
                                    ? " (the port replaces each monitor's own, as F5's *:* takes the server's port)"
                                    : ""));
        }
        if (tp != null && ta == null) {
            o.mapped(tp, "translation-port " + tp.value());
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
        virtualServers.put(key, vs);
        o.rest();
    }

    /**
     * Each virtual server's depends-on, by our names; a reference to no imported server, or one
     * closing a cycle (which our configuration refuses, and which would keep them all down), is
     * left out with a line.
     */
    @SuppressWarnings("unchecked")
    private void dependencies() {
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
                virtualServers.get(e.getKey()).put("depends-on", on);
                d.on().mapped(d.at(), "depends-on " + on);
            }
        }
        Map<String, Map<String, Object>> byName = new HashMap<>();
        virtualServers.values().forEach(v -> byName.put((String) v.get("name"), v));
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
        for (var e : virtualServers.entrySet()) {
            if (e.getValue().get("name").equals(ourName)) {
                return e.getKey();
            }
        }
        return ourName;
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
        Map<String, Object> vs = virtualServers.get(key);
        return vs == null ? null : (String) vs.get("name");
    }

    /** {@code 10.1.1.1:80}, {@code 2001:db8::1.80}, route domain {@code %2} taken off: address and port ("*" if none). */
    static String[] hostPort(String destination) {
        String d = destination.replaceAll("%\\d+", "");
        int colons = d.length() - d.replace(":", "").length();
        int sep = colons > 1 ? d.lastIndexOf('.') : d.lastIndexOf(':');
        if (colons > 1 && sep < d.lastIndexOf(':')) {
            sep = -1; // IPv6 without a port
        }
        return sep < 0 ? new String[] {d, "*"} : new String[] {d.substring(0, sep), d.substring(sep + 1)};
    }

    /** An IP address literal, or null: never a name lookup. */
    static InetAddress address(String text) {
        if (!text.matches("[0-9a-fA-F:.]+") || !(text.contains(".") || text.contains(":"))) {
            return null;
        }
        try {
            return InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- pools

    private void pool(TmshNode n) {
        boolean typed = n.words().size() >= 4;
        String type = typed ? n.word(2) : "a";
        String f5Name = name(n.word(typed ? 3 : 2));
        F5Object o = new F5Object(n, "pool", f5Name, report);
        if (!Set.of("a", "aaaa", "cname").contains(type)) {
            o.unsupported("pool type " + type + ": ours answers A, AAAA and CNAME pools");
            return;
        }
        boolean cname = type.equals("cname");
        String ourName = pools.containsKey(f5Name) ? f5Name + "-" + type : f5Name;
        if (pools.containsKey(ourName)) {
            o.unsupported("pool " + ourName + " is defined already: the first is kept");
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
        pools.put(ourName, p);
        poolTypes.put(ourName, type);
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
            out = r == null || r == 1 ? target : Map.of("name", target, "ratio", r);
            o.mapped("member " + target + (r == null ? "" : " ratio " + r));
        } else {
            String ref = m.key();
            int colon = ref.indexOf(':');
            String key = colon < 0 ? null : name(ref.substring(0, colon)) + ":" + name(ref.substring(colon + 1));
            Map<String, Object> vs = key == null ? null : virtualServers.get(key);
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
            manualResumeMonitors.addAll(memberVs);
            o.different(
                    manual,
                    "manual-resume: ours holds a server its monitor took down (manual-resume on the monitor);"
                            + " the members' monitors are written again with manual-resume, for these servers in every pool");
        } else if (manual != null) {
            o.mapped(manual, "manual-resume " + manual.value());
        }
        TmshNode rule = o.get("monitor");
        if (rule != null) {
            List<String> extra = monitorRule(o, rule);
            for (String key : memberVs) {
                @SuppressWarnings("unchecked")
                List<String> had = (List<String>)
                        virtualServers.get(key).computeIfAbsent("monitors", k -> new ArrayList<String>());
                extra.stream().filter(m -> !had.contains(m)).forEach(had::add);
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

    /**
     * A tcp monitor needs a port here. F5's {@code *:*} checks each server's own port, which is
     * written as each server's {@code translation:} port; the monitor's own port is then never used,
     * and is one of its servers' ports. The other kinds have a default port.
     */
    private void monitorPorts() {
        for (var e : monitors.entrySet()) {
            Map<String, Object> m = e.getValue();
            if (m.get("type").equals("tcp") && !m.containsKey("port")) {
                String port = monitorPorts.get(e.getKey());
                m.put("port", port == null || port.equals("*") ? 80 : Integer.valueOf(port));
                if (port == null || port.equals("*")) {
                    report.different("monitor", e.getKey(), 1, "destination *:* on servers without a port: port 80");
                }
            }
        }
    }

    /** Servers of manual-resume pools get copies of their monitors that hold them down until resumed. */
    @SuppressWarnings("unchecked")
    private void applyManualResume() {
        for (String key : manualResumeMonitors) {
            Map<String, Object> vs = virtualServers.get(key);
            List<String> own = (List<String>) vs.get("monitors");
            if (own == null || own.isEmpty()) {
                continue;
            }
            List<String> held = new ArrayList<>();
            for (String m : own) {
                String copy = m + "-manual-resume";
                if (!monitors.containsKey(copy)) {
                    Map<String, Object> c = new LinkedHashMap<>(monitors.get(m));
                    c.put("name", copy);
                    c.put("manual-resume", true);
                    monitors.put(copy, c);
                }
                held.add(copy);
            }
            vs.put("monitors", held);
        }
    }

    // ---------------------------------------------------------------- wide IPs

    private void wideIp(TmshNode n) {
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
        for (String alias : o.node.childrenOrEmpty().stream()
                .filter(c -> c.key().equals("aliases"))
                .flatMap(c -> c.items().stream())
                .toList()) {
            if (wildcard(o, o.get("aliases"), alias)) {
                names.add(alias);
                o.mapped(
                        o.get("aliases"), "alias " + alias + ": a wide IP of its own with the same pools and settings");
            }
        }
        List<Object> choices = new ArrayList<>();
        List<Map.Entry<Long, TmshNode>> ordered = new ArrayList<>();
        Map<TmshNode, String> wanted = new HashMap<>();
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
            String pool = poolOf(name(p.key()), wanted.get(p));
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
            choices.add(ratio == 1 ? pool : new LinkedHashMap<>(Map.of("name", pool, "ratio", ratio)));
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
            Object had = loadBalancing.putIfAbsent(key, bits.intValue());
            o.different(
                    cidr,
                    "persist-cidr-" + v + " " + cidr.value()
                            + ": ours is one prefix for every wide IP (load-balancing: " + key + ")"
                            + (had == null ? "" : "; kept " + had));
        }
        TmshNode last = o.get("last-resort-pool");
        if (last != null && !last.value().isEmpty() && !last.value().equals("none")) {
            String lp = name(last.words().getLast());
            if (pools.containsKey(lp)) {
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
            Map<String, Object> had = wideIps.get(one.toLowerCase(Locale.ROOT));
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
            wideIps.put(one.toLowerCase(Locale.ROOT), entry);
        }
        o.mapped("wide IP " + wName + " (" + type + ")");
        o.rest();
    }

    /** Our name of the imported pool {@code f5Name} of {@code type} (renamed NAME-TYPE when another type has the name), or null. */
    private String poolOf(String f5Name, String type) {
        for (String candidate : List.of(f5Name, f5Name + "-" + type)) {
            if (type.equals(poolTypes.get(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * F5 keeps persistence per LDNS address (persist-cidr 32 and 128 by default), ours per /24 and
     * /56: F5's are written unless a wide IP gives its own (one pair for every wide IP here).
     */
    private void persistence(F5Object o, TmshNode at) {
        for (String v : List.of("ipv4", "ipv6")) {
            if (o.node.childrenOrEmpty().stream().noneMatch(c -> c.key().equals("persist-cidr-" + v))
                    && loadBalancing.putIfAbsent(
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

    // ---------------------------------------------------------------- global settings

    private void globalSettings(TmshNode n) {
        String part = n.words().size() > 2 ? n.word(2) : "";
        F5Object o = new F5Object(n, "global-settings", part, report);
        durationSetting(o, "path-ttl", "path-ttl");
        durationSetting(o, "inactive-ldns-ttl", "inactive-ttl");
        durationSetting(o, "paths-retry", "retry");
        TmshNode protocols = o.get("metrics-collection-protocols");
        if (protocols != null) {
            List<String> ours = new ArrayList<>();
            for (String p : protocols.isBlock()
                    ? protocols.items()
                    : List.of(protocols.value().split("\\s+"))) {
                String q = p.toLowerCase(Locale.ROOT).replace('-', '_');
                if (Set.of("dns_dot", "dns_rev", "udp", "tcp", "icmp").contains(q)) {
                    ours.add(q);
                } else {
                    o.unsupported(protocols, "probe protocol " + p + ": ours are dns_dot, dns_rev, udp, tcp and icmp");
                }
            }
            if (!ours.isEmpty()) {
                probe.put("protocols", ours);
                o.mapped(protocols, "metrics-collection-protocols -> probe: protocols " + ours);
            }
        }
        TmshNode longest = o.get("topology-longest-match");
        if (longest != null && longest.value().equals("yes")) {
            o.mapped(longest, "topology-longest-match yes: ours always takes the longest match");
        } else if (longest != null) {
            o.different(longest, "topology-longest-match " + longest.value() + ": ours always takes the longest match");
        }
        TmshNode sync = o.get("synchronization");
        if (sync != null) {
            o.different(
                    sync,
                    "synchronization " + sync.value() + ": pair the instances with `gslb peer pair`;"
                            + " they then share one configuration");
        }
        o.get("synchronization-group-name");
        o.rest();
    }

    private void durationSetting(F5Object o, String key, String ours) {
        TmshNode n = o.get(key);
        if (n == null) {
            return;
        }
        try {
            Long given = number(n.value(), 1, 10L * 365 * 86_400);
            if (given == null) {
                throw new NumberFormatException();
            }
            long v = given;
            probe.put(ours, v + "s");
            o.mapped(n, key + " " + v + " -> probe: " + ours + " " + v + "s");
        } catch (NumberFormatException e) {
            o.unsupported(n, key + " " + n.value() + " is not a number of seconds");
        }
    }

    // ---------------------------------------------------------------- zones and the output

    /** The zones of the wide IPs: the given files, else one made up per parent name. */
    private List<Map<String, Object>> zones(Map<String, String> madeZones) {
        Map<Name, String> given = options.zones();
        Set<Name> made = new LinkedHashSet<>();
        Set<Name> used = new LinkedHashSet<>();
        for (Map<String, Object> w : wideIps.values()) {
            Name n;
            try {
                String s = (String) w.get("name");
                n = Name.fromString(s.startsWith("*.") ? s.substring(2) : s, Name.root);
            } catch (TextParseException e) {
                continue; // refused when read
            }
            Name best = null;
            for (Name z : given.keySet()) {
                if (n.subdomain(z) && (best == null || z.labels() > best.labels())) {
                    best = z;
                }
            }
            if (best != null) {
                used.add(best);
            } else {
                made.add(n.labels() <= 3 ? n : new Name(n, 1));
            }
        }
        List<Name> parents = new ArrayList<>(made);
        parents.sort(Comparator.comparingInt(Name::labels));
        List<Name> kept = new ArrayList<>();
        for (Name z : parents) {
            if (kept.stream().noneMatch(z::subdomain)) {
                kept.add(z);
            }
        }
        List<Map<String, Object>> zones = new ArrayList<>();
        for (Name z : used) {
            zones.add(new LinkedHashMap<>(Map.of("file", given.get(z), "origin", z.toString(true))));
        }
        for (Name z : kept) {
            String origin = z.toString(true);
            String fileName = "zones/" + origin + ".zone";
            madeZones.put(
                    fileName,
                    "; made up by gslb import bigip for the wide IPs of " + origin
                            + ": replace it with your zone (gslb import bigip --zone FILE)\n"
                            + "$ORIGIN " + origin + ".\n$TTL 3600\n"
                            + "@ IN SOA ns1 hostmaster 1 3600 600 1209600 30\n"
                            + "@ IN NS ns1\n");
            zones.add(new LinkedHashMap<>(Map.of("file", fileName, "origin", origin)));
            report.different(
                    "zone",
                    origin,
                    1,
                    "no zone file given: " + fileName + " made up (SOA and NS only) for the"
                            + " wide IPs in it; give yours with --zone FILE");
        }
        return zones;
    }

    private String yaml(List<Map<String, Object>> zones) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("zones", zones);
        out.put("datacenters", dataCenters);
        if (!monitors.isEmpty()) {
            out.put("monitors", new ArrayList<>(monitors.values()));
        }
        if (!links.isEmpty()) {
            out.put("links", new ArrayList<>(links.values()));
        }
        out.put("virtual-servers", new ArrayList<>(virtualServers.values()));
        out.put("pools", new ArrayList<>(pools.values()));
        out.put("wide-ips", new ArrayList<>(wideIps.values()));
        if (!loadBalancing.isEmpty()) {
            out.put("load-balancing", loadBalancing);
        }
        List<String> data = new ArrayList<>(options.topologyData());
        if (topology.size() > 0) {
            data.add(TOPOLOGY_FILE);
            out.put("topology", Map.of("data", data));
        }
        if (!probe.isEmpty()) {
            out.put("probe", probe);
        }
        try {
            return "# Imported from " + file + " by gslb import bigip; every line of it is in import-report.txt.\n"
                    + "# Add this instance's own keys (instance:, dns: listen:, sync:) before serving it.\n"
                    + YAML.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
