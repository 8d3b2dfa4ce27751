package dev.gslb.config.bigip;

import static dev.gslb.config.bigip.F5Values.NAME;
import static dev.gslb.config.bigip.F5Values.name;
import static dev.gslb.config.bigip.F5Values.number;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.xbill.DNS.Name;

/**
 * {@code gslb import bigip}: an F5 BIG-IP DNS (GTM) configuration in tmsh syntax
 * ({@code bigip_gtm.conf}, {@code tmsh list gtm}) read into our configuration, a topology file in
 * 3DNS syntax and a report. F5 names are kept, the {@code /Common/} partition taken off (other
 * partitions keep theirs: {@code Tenant/web}). Where F5's default differs from ours it is written
 * out (a pool's methods are F5's round-robin, round-robin, return-to-dns), so the answers are the
 * ones F5 gave. Every object and property gets a line in the report.
 */
public final class BigIpImport {
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

    /** SnakeYAML reads at most 3 Mi code points of a file; a configuration past that would not load. */
    static final int MAX_CONFIG_CHARS = 3 << 20;

    private final String file;

    private final Options options;

    private final ImportReport report;

    private final TopologyImport topology;
    private final ImportedConfig config = new ImportedConfig();
    private final MonitorImport monitorImport;
    private final ServerImport servers;
    private final PoolImport poolImport;
    private final WideIpImport wideIpImport;

    private BigIpImport(String file, Options options) {
        this.file = file;
        this.options = options;
        this.report = new ImportReport(file);
        this.topology = new TopologyImport(report, F5Values::name, options.loadedRegions());
        this.monitorImport = new MonitorImport(report, config);
        this.servers = new ServerImport(report, config, monitorImport);
        this.poolImport = new PoolImport(report, config, monitorImport);
        this.wideIpImport = new WideIpImport(report, config);
    }

    /** Reads {@code text} (the contents of {@code file}) and maps it; a syntax error is thrown with its line. */
    public static Result read(String file, String text, Options options) throws TmshException {
        return new BigIpImport(file, options).run(TmshParser.parse(file, text));
    }

    /**
     * {@link #read(String, String, Options)} of a file: a regular file (not a device or a pipe,
     * which could feed it for ever), read only up to what the parser takes. Bytes that are not
     * UTF-8 (a Latin-1 description) become U+FFFD; a byte-order mark is skipped.
     */
    public static Result read(java.nio.file.Path file, Options options) throws TmshException, java.io.IOException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new TmshException(file.toString(), 1, "not a regular file");
        }
        if (java.nio.file.Files.size(file) > TmshParser.MAX_CHARS) { // refused before a byte is read
            throw new TmshException(
                    file.toString(),
                    1,
                    "larger than " + (TmshParser.MAX_CHARS >> 20) + " MiB (" + java.nio.file.Files.size(file)
                            + " bytes); not read");
        }
        var decoder = java.nio.charset.StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
        StringBuilder text = new StringBuilder();
        try (var in = new java.io.InputStreamReader(java.nio.file.Files.newInputStream(file), decoder)) {
            char[] buf = new char[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                text.append(buf, 0, n);
                if (text.length() > TmshParser.MAX_CHARS) {
                    throw new TmshException(
                            file.toString(),
                            1,
                            "larger than " + (TmshParser.MAX_CHARS >> 20) + " Mi characters; not read");
                }
            }
        }
        int bom = !text.isEmpty() && text.charAt(0) == '\uFEFF' ? 1 : 0;
        return read(file.toString(), text.substring(bom), options);
    }

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
        steps.put("monitor", monitorImport::monitor);
        steps.put("datacenter", servers::dataCenter);
        steps.put("link", servers::link);
        steps.put("server", servers::server);
        steps.put("pool", poolImport::pool);
        steps.put("wideip", wideIpImport::wideIp);
        steps.put("region", n -> topology.region(n, name(n.word(2))));
        steps.put("topology", n -> topology.record(n, config.dataCenters::contains, config.pools::containsKey));
        steps.put("global-settings", this::globalSettings);
        Set<List<String>> seen = new java.util.HashSet<>(); // kind, type and name as ours: /Common/a and a are one
        for (var step : steps.entrySet()) {
            for (TmshNode n : byKind.getOrDefault(step.getKey(), List.of())) {
                List<String> id = new ArrayList<>(n.words().subList(1, n.words().size() - 1));
                id.add(name(n.words().getLast()));
                if (named(n) && seen.add(id)) {
                    step.getValue().accept(n);
                } else if (named(n)) {
                    report.unsupported(
                            n.word(1), name(n.words().getLast()), n.line(), "defined twice: the first is kept");
                }
            }
        }
        topology.finishRegions();
        servers.dependencies();
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
        config.finishMonitors(report);
        config.applyManualResume();
        List<Map<String, Object>> zones = config.zones(options.zones(), report);
        String yaml = config.yaml(file, zones, options.topologyData(), topology.size() > 0);
        String problem = config.wideIps.isEmpty()
                ? "no wide IP could be imported: there is nothing to serve"
                : yaml.length() > MAX_CONFIG_CHARS
                        ? "the configuration would have " + yaml.length() + " characters, more than the "
                                + MAX_CONFIG_CHARS + " a configuration file may have (the YAML reader's bound)"
                        : null;
        return new Result(yaml, topology.file(), config.madeFiles, report, problem);
    }

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
                config.probe.put("protocols", ours);
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
        TmshNode group = o.get("synchronization-group-name");
        if (group != null) {
            o.different(
                    group,
                    "synchronization-group-name " + group.value() + ": a pair here is what `gslb peer pair`"
                            + " joins; it has no name");
        }
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
            config.probe.put(ours, v + "s");
            o.mapped(n, key + " " + v + " -> probe: " + ours + " " + v + "s");
        } catch (NumberFormatException e) {
            o.unsupported(n, key + " " + n.value() + " is not a number of seconds");
        }
    }
}
