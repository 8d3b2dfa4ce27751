package dev.gslb.config;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.method.LowestRoundTripTime;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.StaticPersistence;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.dns.server.ListenerSettings;
import dev.gslb.dns.site.DataCenter;
import dev.gslb.dns.site.VirtualServer;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.dns.zone.Zones;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.health.Check;
import dev.gslb.probe.health.ExternalCheck;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.health.HttpCheck;
import dev.gslb.probe.health.IcmpCheck;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.TcpCheck;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.server.admin.AdminSettings;
import dev.gslb.sync.SyncSettings;
import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.CidrSet;
import dev.gslb.topology.LiveTopology;
import dev.gslb.topology.TopologyRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads the YAML configuration (see the README for every key and default) and builds the served
 * model from it. Paths in the file are relative to the file's folder; the embedded default's are
 * relative to the installation folder.
 */
public final class ConfigLoader {
    public static final String EMBEDDED_NAME = "embedded default config";
    private static final String EMBEDDED_RESOURCE = "/default-config.yaml";

    /** Methods built to check a configuration, never run. */
    private static final MethodRegistry UNBOUND_METHODS = new MethodRegistry(MethodRegistry.Services.UNBOUND);

    private static final Set<String> DNS_KEYS = Set.of(
            "listen",
            "threads",
            "edns-udp-size",
            "cookies",
            "cookie-rotation",
            "answer-cache",
            "tcp-idle-timeout",
            "tcp-query-timeout",
            "tcp-max-connections",
            "tcp-max-connections-per-source",
            "rate-limit");

    private ConfigLoader() {}

    public static GslbConfig loadEmbedded(Path home) throws ConfigException {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(EMBEDDED_RESOURCE)) {
            return parse(EMBEDDED_NAME, new InputStreamReader(in, StandardCharsets.UTF_8), home);
        } catch (IOException e) {
            throw new ConfigException(EMBEDDED_NAME + ": cannot read: " + e.getMessage());
        }
    }

    public static GslbConfig load(Path file) throws ConfigException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Path base = file.toAbsolutePath().getParent();
            return parse(file.toString(), r, base);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
    }

    static GslbConfig parse(String label, Reader reader, Path base) throws ConfigException {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(reader);
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw new ConfigException(label, line, "YAML syntax: " + e.getProblem());
        } catch (YAMLException e) {
            throw new ConfigException(label, 0, "YAML syntax: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(label, 0, "the file is empty");
        }
        try {
            return new Builder(label, base).build(new YamlNode(label, root));
        } catch (IllegalArgumentException e) { // a value refused below the sections that name their lines
            throw new ConfigException(label, 0, e.getMessage());
        }
    }

    /** A step that reads one node. */
    private interface Step {
        void run() throws ConfigException;
    }

    /** Runs {@code step}; a value the model refuses (IllegalArgumentException) becomes an error at {@code n}'s line. */
    private static void at(YamlNode n, Step step) throws ConfigException {
        try {
            step.run();
        } catch (IllegalArgumentException e) {
            throw n.error(e.getMessage());
        }
    }

    /** One pass over the tree; keeps what is needed to resolve names between sections. */
    private static final class Builder {
        private final String label;
        private final Path base;
        private final Map<String, DataCenter> dataCenters = new LinkedHashMap<>();
        private final Map<String, VirtualServer> virtualServers = new LinkedHashMap<>();
        private final Map<String, PoolSpec> pools = new LinkedHashMap<>();
        private final Map<String, MonitorSpec> monitors = new LinkedHashMap<>();
        private final List<HealthTarget> healthTargets = new ArrayList<>();

        Builder(String label, Path base) {
            this.label = label;
            this.base = base;
        }

        GslbConfig build(YamlNode root) throws ConfigException {
            Map<String, YamlNode> top = root.map(
                    "the configuration",
                    Set.of(
                            "instance",
                            "dns",
                            "admin",
                            "zones",
                            "datacenters",
                            "virtual-servers",
                            "pools",
                            "wide-ips",
                            "topology",
                            "probe",
                            "monitors",
                            "load-balancing",
                            "sync"));
            for (YamlNode n : listOf(top, "datacenters")) {
                DataCenter dc = new DataCenter(n.scalar("a data center name"));
                if (dataCenters.put(dc.name(), dc) != null) {
                    throw n.error("data center " + dc.name() + " is defined twice");
                }
            }
            InstanceIdentity instance = instance(top.get("instance"));
            YamlNode dnsNode = top.get("dns");
            Map<String, YamlNode> dnsKeys = dnsNode == null ? Map.of() : dnsNode.map("dns", DNS_KEYS);
            ListenerSettings dns = dns(dnsNode, dnsKeys);
            AnswerSettings answers = answers(dnsNode, dnsKeys);
            AdminSettings admin = admin(top.get("admin"));
            List<Zone> zones = new ArrayList<>();
            for (YamlNode n : listOf(top, "zones")) {
                zones.add(zone(n));
            }
            if (zones.isEmpty()) {
                throw root.error("no zones: add at least one under 'zones:' (file: path/to/zone)");
            }
            for (YamlNode n : listOf(top, "monitors")) {
                at(n, () -> monitor(n));
            }
            for (YamlNode n : listOf(top, "virtual-servers")) {
                at(n, () -> virtualServer(n));
            }
            for (YamlNode n : listOf(top, "pools")) {
                at(n, () -> pool(n));
            }
            List<WideIpSpec> wideIps = new ArrayList<>();
            Zones served = new Zones(zones);
            Set<Name> names = new HashSet<>();
            for (YamlNode n : listOf(top, "wide-ips")) {
                at(n, () -> {
                    WideIpSpec w = wideIp(n);
                    Authority.checkPlacement(served, w.name());
                    if (!names.add(w.name())) {
                        throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
                    }
                    wideIps.add(w);
                });
            }
            GslbConfig.LoadBalancing lb = loadBalancing(top.get("load-balancing"));
            GslbConfig.Topology topology = topology(top.get("topology"));
            GslbConfig.Probing probing = probing(top.get("probe"));
            dev.gslb.sync.SyncSettings sync = sync(top.get("sync"), probing);
            GslbConfig config = new GslbConfig(
                    instance,
                    dns,
                    answers,
                    admin,
                    List.copyOf(dataCenters.values()),
                    List.copyOf(zones),
                    List.copyOf(wideIps),
                    lb,
                    topology,
                    probing,
                    List.copyOf(healthTargets),
                    sync);
            at(root, () -> config.authority(UNBOUND_METHODS)); // a trial build; each rule was checked at its line
            return config;
        }

        /** admin: listen, token-file, allowed-hosts, allowed-origins, open-paths, max-body (README "The admin API"). */
        private AdminSettings admin(YamlNode n) throws ConfigException {
            AdminSettings d = AdminSettings.of(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), AdminSettings.DEFAULT_PORT),
                    base.resolve("var/admin.token"));
            if (n == null) {
                return d;
            }
            Map<String, YamlNode> m = n.map(
                    "admin",
                    Set.of("listen", "token-file", "allowed-hosts", "allowed-origins", "open-paths", "max-body"));
            InetSocketAddress listen = m.containsKey("listen")
                    ? address(m.get("listen"), "admin listen", AdminSettings.DEFAULT_PORT)
                    : d.listen();
            Path token = d.tokenFile();
            if (m.containsKey("token-file")) {
                String t = m.get("token-file").scalar("token-file");
                token = t.equals("none") ? null : base.resolve(t);
            }
            List<String> hosts = strings(m.get("allowed-hosts"), "allowed-hosts");
            List<String> origins = strings(m.get("allowed-origins"), "allowed-origins");
            List<String> open =
                    m.containsKey("open-paths") ? strings(m.get("open-paths"), "open-paths") : d.openPaths();
            int maxBody = m.containsKey("max-body")
                    ? (int) Math.min(Integer.MAX_VALUE, m.get("max-body").bytes("max-body"))
                    : d.maxBody();
            try {
                return new AdminSettings(listen, token, hosts, origins, open, maxBody);
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        private static List<String> strings(YamlNode n, String what) throws ConfigException {
            List<String> out = new ArrayList<>();
            if (n != null) {
                for (YamlNode x : n.list(what)) {
                    out.add(x.scalar(what));
                }
            }
            return out;
        }

        /** topology: data (files/folders), records (region or cidr -> datacenter, score), watch. */
        private GslbConfig.Topology topology(YamlNode n) throws ConfigException {
            List<Path> data = new ArrayList<>();
            List<TopologyRecord> records = new ArrayList<>();
            boolean watch = true;
            if (n != null) {
                Map<String, YamlNode> m = n.map("topology", Set.of("data", "records", "watch"));
                for (YamlNode d : m.containsKey("data") ? m.get("data").list("topology data") : List.<YamlNode>of()) {
                    Path p = base.resolve(d.scalar("topology data path"));
                    if (!Files.exists(p)) {
                        throw d.error("topology data " + p + " does not exist");
                    }
                    data.add(p);
                }
                for (YamlNode r :
                        m.containsKey("records") ? m.get("records").list("topology records") : List.<YamlNode>of()) {
                    records.add(topologyRecord(r));
                }
                if (m.containsKey("watch")) {
                    watch = bool(m.get("watch"), "topology watch");
                }
            }
            return new GslbConfig.Topology(new LiveTopology.Spec(data, records, dataCenters.keySet()), watch);
        }

        private TopologyRecord topologyRecord(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m = n.map("topology record", Set.of("region", "cidr", "datacenter", "score"));
            if (m.containsKey("region") == m.containsKey("cidr")) {
                throw n.error("a topology record needs exactly one of 'region:' (a loaded list) or 'cidr:'");
            }
            String source;
            if (m.containsKey("cidr")) {
                source = m.get("cidr").scalar("topology cidr");
                try {
                    source = dev.gslb.topology.Cidr.parse(source).toString();
                } catch (IllegalArgumentException e) {
                    throw m.get("cidr").error(e.getMessage());
                }
            } else {
                source = m.get("region").scalar("topology region");
            }
            String dc =
                    dataCenter(required(n, m, "datacenter", "topology record")).name();
            long score = m.containsKey("score") ? m.get("score").integer("topology score", 0, Integer.MAX_VALUE) : 100;
            return new TopologyRecord(source, dc, score, label + ":" + n.line());
        }

        /** monitors: [{name, type: icmp|tcp|http|https|external, ...}] (README "Health monitors"). */
        private void monitor(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m = n.map(
                    "monitor",
                    Set.of(
                            "name",
                            "type",
                            "port",
                            "path",
                            "host",
                            "expect-status",
                            "expect-body",
                            "command",
                            "interval",
                            "timeout",
                            "up",
                            "down"));
            String name = required(n, m, "name", "monitor").scalar("monitor name");
            String type = required(n, m, "type", "monitor").scalar("monitor type");
            Check check = switch (type) {
                case "icmp" -> new IcmpCheck();
                case "tcp" ->
                    new TcpCheck(required(n, m, "port", "a tcp monitor").integer("port", 1, 65535));
                case "http", "https" ->
                    new HttpCheck(
                            type.equals("https"),
                            m.containsKey("port")
                                    ? m.get("port").integer("port", 1, 65535)
                                    : type.equals("https") ? 443 : 80,
                            m.containsKey("path") ? m.get("path").scalar("path") : "/",
                            m.containsKey("host") ? m.get("host").scalar("host") : null,
                            m.containsKey("expect-status")
                                    ? m.get("expect-status").integer("expect-status", 100, 599)
                                    : 200,
                            m.containsKey("expect-body") ? m.get("expect-body").scalar("expect-body") : null);
                case "external" -> {
                    List<String> cmd = new ArrayList<>();
                    for (YamlNode c :
                            required(n, m, "command", "an external monitor").list("command")) {
                        cmd.add(c.scalar("command argument"));
                    }
                    yield new ExternalCheck(cmd);
                }
                default ->
                    throw m.get("type")
                            .error("unknown monitor type '" + type + "'; expected icmp, tcp, http, https or external");
            };
            var interval =
                    m.containsKey("interval") ? m.get("interval").duration("interval") : MonitorSpec.DEFAULT_INTERVAL;
            var timeout = m.containsKey("timeout") ? m.get("timeout").duration("timeout") : interval.dividedBy(2);
            int up = m.containsKey("up") ? m.get("up").integer("up", 1, 1000) : MonitorSpec.DEFAULT_UP;
            int down = m.containsKey("down") ? m.get("down").integer("down", 1, 1000) : MonitorSpec.DEFAULT_DOWN;
            try {
                if (monitors.put(name, new MonitorSpec(name, check, interval, timeout, up, down)) != null) {
                    throw n.error("monitor " + name + " is defined twice");
                }
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        /** probe: how LDNS are measured, the proximity TTLs, the H2 store (README "Probing"). */
        private GslbConfig.Probing probing(YamlNode n) throws ConfigException {
            ProbeSettings d = ProbeSettings.defaults();
            ProximitySettings p = ProximitySettings.DEFAULTS;
            Path store = base.resolve("var/proximity");
            var flush = java.time.Duration.ofSeconds(5);
            if (n == null) {
                return new GslbConfig.Probing(d, p, store, flush);
            }
            Map<String, YamlNode> m = n.map(
                    "probe",
                    Set.of(
                            "source",
                            "protocols",
                            "samples",
                            "timeout",
                            "rate",
                            "concurrency",
                            "min-interval",
                            "dns-port",
                            "udp-port",
                            "exclude",
                            "queue",
                            "path-ttl",
                            "retry",
                            "inactive-ttl",
                            "store",
                            "flush-interval",
                            "max-ldns",
                            "new-ldns-per-network",
                            "per-network"));
            InetAddress source = m.containsKey("source") ? ip(m.get("source")) : d.source();
            List<ProbeProtocol> protocols = new ArrayList<>();
            if (m.containsKey("protocols")) {
                for (YamlNode x : m.get("protocols").list("protocols")) {
                    try {
                        protocols.add(ProbeProtocol.parse(x.scalar("protocol")));
                    } catch (IllegalArgumentException e) {
                        throw x.error(e.getMessage());
                    }
                }
            } else {
                protocols.addAll(d.protocols());
            }
            List<String> exclude = m.containsKey("exclude") ? exclusions(m.get("exclude")) : d.exclusions();
            ProbeSettings probes = new ProbeSettings(
                    source,
                    protocols,
                    m.containsKey("samples") ? m.get("samples").integer("samples", 1, 100) : d.samples(),
                    m.containsKey("timeout") ? m.get("timeout").duration("timeout") : d.timeout(),
                    m.containsKey("rate") ? m.get("rate").integer("rate", 1, 100_000) : d.ratePerSecond(),
                    m.containsKey("concurrency")
                            ? m.get("concurrency").integer("concurrency", 1, 10_000)
                            : d.concurrency(),
                    m.containsKey("min-interval") ? m.get("min-interval").duration("min-interval") : d.minInterval(),
                    m.containsKey("dns-port") ? m.get("dns-port").integer("dns-port", 1, 65535) : d.dnsPort(),
                    m.containsKey("udp-port") ? m.get("udp-port").integer("udp-port", 1, 65535) : d.udpPort(),
                    exclude,
                    m.containsKey("queue") ? m.get("queue").integer("queue", 1, 10_000_000) : d.queueCapacity(),
                    m.containsKey("per-network")
                            ? m.get("per-network").integer("per-network", 1, 100_000)
                            : d.perNetwork());
            int newPerNetwork = m.containsKey("new-ldns-per-network")
                    ? m.get("new-ldns-per-network").integer("new-ldns-per-network", 1, 1_000_000)
                    : p.newPerNetwork();
            ProximitySettings proximity = new ProximitySettings(
                    m.containsKey("path-ttl") ? m.get("path-ttl").duration("path-ttl") : p.pathTtl(),
                    m.containsKey("retry") ? m.get("retry").duration("retry") : p.retry(),
                    m.containsKey("inactive-ttl") ? m.get("inactive-ttl").duration("inactive-ttl") : p.inactiveTtl(),
                    m.containsKey("max-ldns") ? m.get("max-ldns").integer("max-ldns", 1, 100_000_000) : p.maxLdns(),
                    newPerNetwork,
                    Math.max(p.newPerNetworkBurst(), newPerNetwork));
            if (m.containsKey("store")) {
                store = base.resolve(m.get("store").scalar("store"));
            }
            if (m.containsKey("flush-interval")) {
                flush = m.get("flush-interval").duration("flush-interval");
            }
            return new GslbConfig.Probing(probes, proximity, store, flush);
        }

        /** probe.exclude: CIDRs and "own-addresses"; it replaces the default list. */
        private static List<String> exclusions(YamlNode n) throws ConfigException {
            List<String> out = new ArrayList<>();
            for (YamlNode x : n.list("exclude")) {
                String text = x.scalar("exclude CIDR");
                if (text.equals(ProbeSettings.OWN_ADDRESSES)) {
                    out.add(text);
                    continue;
                }
                try {
                    out.add(Cidr.parse(text).toString());
                } catch (IllegalArgumentException e) {
                    throw x.error(e.getMessage() + " (or " + ProbeSettings.OWN_ADDRESSES + ")");
                }
            }
            return out;
        }

        /** A list of CIDRs; a bad one is an error at its own line. */
        private static List<Cidr> cidrs(YamlNode n, String what) throws ConfigException {
            List<Cidr> cidrs = new ArrayList<>();
            for (YamlNode x : n.list(what)) {
                try {
                    cidrs.add(Cidr.parse(x.scalar(what + " CIDR")));
                } catch (IllegalArgumentException e) {
                    throw x.error(e.getMessage());
                }
            }
            return cidrs;
        }

        private List<YamlNode> listOf(Map<String, YamlNode> top, String key) throws ConfigException {
            YamlNode n = top.get(key);
            return n == null ? List.of() : n.list(key);
        }

        private InstanceIdentity instance(YamlNode n) throws ConfigException {
            String name = defaultInstanceName();
            String dc =
                    dataCenters.isEmpty() ? "" : dataCenters.keySet().iterator().next();
            if (n != null) {
                Map<String, YamlNode> m = n.map("instance", Set.of("name", "datacenter"));
                if (m.containsKey("name")) {
                    name = m.get("name").scalar("instance name");
                }
                if (m.containsKey("datacenter")) {
                    dc = dataCenter(m.get("datacenter")).name();
                }
            }
            return new InstanceIdentity(name, dc);
        }

        /** dns: listeners, TCP limits, EDNS size, cookies, the answer cache, rate limiting (README "Configuration"). */
        private ListenerSettings dns(YamlNode n, Map<String, YamlNode> m) throws ConfigException {
            ListenerSettings d = ListenerSettings.DEFAULTS;
            if (n == null) {
                return d;
            }
            List<InetSocketAddress> listen = d.addresses();
            if (m.containsKey("listen")) {
                listen = new ArrayList<>();
                for (YamlNode a : m.get("listen").list("dns listen")) {
                    listen.add(address(a, "dns listen address", ListenerSettings.DEFAULT_PORT));
                }
            }
            try {
                return new ListenerSettings(
                        listen,
                        m.containsKey("threads") ? m.get("threads").integer("dns threads", 0, 256) : d.threads(),
                        m.containsKey("tcp-idle-timeout")
                                ? m.get("tcp-idle-timeout").duration("tcp-idle-timeout")
                                : d.tcpIdle(),
                        m.containsKey("tcp-query-timeout")
                                ? m.get("tcp-query-timeout").duration("tcp-query-timeout")
                                : d.tcpQueryTimeout(),
                        m.containsKey("tcp-max-connections")
                                ? m.get("tcp-max-connections").integer("tcp-max-connections", 1, 1_000_000)
                                : d.tcpMaxConnections(),
                        m.containsKey("tcp-max-connections-per-source")
                                ? m.get("tcp-max-connections-per-source")
                                        .integer("tcp-max-connections-per-source", 1, 1_000_000)
                                : d.tcpMaxConnectionsPerSource());
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        private AnswerSettings answers(YamlNode n, Map<String, YamlNode> m) throws ConfigException {
            AnswerSettings d = AnswerSettings.DEFAULTS;
            if (n == null) {
                return d;
            }
            try {
                return new AnswerSettings(
                        m.containsKey("edns-udp-size")
                                ? m.get("edns-udp-size").integer("edns-udp-size", 512, 4096)
                                : d.ednsUdpSize(),
                        m.containsKey("cookies") ? bool(m.get("cookies"), "cookies") : d.cookies(),
                        m.containsKey("cookie-rotation")
                                ? m.get("cookie-rotation").duration("cookie-rotation")
                                : d.cookieRotation(),
                        m.containsKey("answer-cache") ? m.get("answer-cache").bytes("answer-cache") : d.cacheBytes(),
                        rateLimit(m.get("rate-limit")));
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        /** dns.rate-limit: response-rate limiting (README "Response-rate limiting"). */
        private RateLimitSettings rateLimit(YamlNode n) throws ConfigException {
            RateLimitSettings d = RateLimitSettings.DEFAULTS;
            if (n == null) {
                return d;
            }
            Map<String, YamlNode> m = n.map(
                    "rate-limit",
                    Set.of(
                            "responses-per-second",
                            "slip",
                            "window",
                            "ipv4-prefix",
                            "ipv6-prefix",
                            "exempt",
                            "table-size"));
            CidrSet exempt = m.containsKey("exempt")
                    ? CidrSet.of(cidrs(m.get("exempt"), "rate-limit exempt"), "rate-limit exempt")
                    : d.exempt();
            try {
                return new RateLimitSettings(
                        m.containsKey("responses-per-second")
                                ? m.get("responses-per-second")
                                        .integer("responses-per-second", 0, RateLimitSettings.MAX_RATE)
                                : d.responsesPerSecond(),
                        m.containsKey("slip") ? m.get("slip").integer("slip", 0, RateLimitSettings.MAX_SLIP) : d.slip(),
                        m.containsKey("window") ? m.get("window").duration("window") : d.window(),
                        m.containsKey("ipv4-prefix")
                                ? m.get("ipv4-prefix").integer("ipv4-prefix", 8, 32)
                                : d.ipv4Prefix(),
                        m.containsKey("ipv6-prefix")
                                ? m.get("ipv6-prefix").integer("ipv6-prefix", 16, 128)
                                : d.ipv6Prefix(),
                        exempt,
                        m.containsKey("table-size")
                                ? m.get("table-size").integer("table-size", 1024, 1 << 26)
                                : d.tableSize());
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        private Zone zone(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m = n.map("zone", Set.of("file", "origin"));
            if (!m.containsKey("file")) {
                throw n.error("zone needs 'file:' (path to an RFC 1035 zone file)");
            }
            Path file = base.resolve(m.get("file").scalar("zone file"));
            Name origin = null;
            if (m.containsKey("origin")) {
                origin = name(m.get("origin"), "zone origin");
            }
            if (!Files.isRegularFile(file)) {
                throw m.get("file").error("zone file " + file + " does not exist");
            }
            try {
                return ZoneFile.load(file, origin);
            } catch (ZoneException e) { // where the zone is configured, then the zone file's own file:line
                throw n.error("zone " + (origin == null ? file.getFileName() : origin) + ": " + e.getMessage());
            }
        }

        private void virtualServer(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m =
                    n.map("virtual server", Set.of("name", "address", "datacenter", "monitors", "ratio", "order"));
            String name = required(n, m, "name", "virtual server").scalar("virtual server name");
            InetAddress address = ip(required(n, m, "address", "virtual server"));
            DataCenter dc = dataCenter(required(n, m, "datacenter", "virtual server"));
            int ratio = m.containsKey("ratio") ? m.get("ratio").integer("ratio", 0, 1_000_000) : 1;
            int order = m.containsKey("order") ? m.get("order").integer("order", 0, 1_000_000) : 0;
            if (virtualServers.put(name, new VirtualServer(name, address, dc, ratio, order)) != null) {
                throw n.error("virtual server " + name + " is defined twice");
            }
            List<MonitorSpec> specs = new ArrayList<>();
            for (YamlNode mon : m.containsKey("monitors") ? m.get("monitors").list("monitors") : List.<YamlNode>of()) {
                String monitor = mon.scalar("monitor name");
                if (!monitors.containsKey(monitor)) {
                    throw mon.error(
                            "monitor " + monitor + " is not defined under 'monitors:'; defined: " + monitors.keySet());
                }
                specs.add(monitors.get(monitor));
            }
            healthTargets.add(new HealthTarget(name, address, dc.name(), specs));
        }

        private void pool(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m = n.map(
                    "pool",
                    Set.of(
                            "name",
                            "members",
                            "preferred",
                            "alternate",
                            "fallback",
                            "max-answers",
                            "ttl",
                            "fallback-ip"));
            String name = required(n, m, "name", "pool").scalar("pool name");
            List<VirtualServer> members = new ArrayList<>();
            for (YamlNode member : required(n, m, "members", "pool").list("pool members")) {
                String vs = member.scalar("pool member");
                if (!virtualServers.containsKey(vs)) {
                    throw member.error("pool " + name + " names virtual server " + vs
                            + ", which is not defined; defined: " + virtualServers.keySet());
                }
                members.add(virtualServers.get(vs));
            }
            if (members.isEmpty()) {
                throw n.error("pool " + name + " has no members");
            }
            List<String> methods = new ArrayList<>();
            List<dev.gslb.dns.method.LoadBalancingMethod> trial = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                String tier = dev.gslb.dns.wideip.Pool.TIER_NAMES.get(t);
                String method = m.containsKey(tier)
                        ? m.get(tier).scalar(tier + " method")
                        : MethodRegistry.DEFAULT_CHAIN.get(t);
                try {
                    trial.add(UNBOUND_METHODS.create(method));
                } catch (IllegalArgumentException e) {
                    throw m.get(tier).error(e.getMessage());
                }
                methods.add(method);
            }
            List<InetAddress> fallback = new ArrayList<>();
            for (YamlNode f :
                    m.containsKey("fallback-ip") ? m.get("fallback-ip").list("fallback-ip") : List.<YamlNode>of()) {
                fallback.add(ip(f));
            }
            int maxAnswers = m.containsKey("max-answers") ? m.get("max-answers").integer("max-answers", 1, 16) : 1;
            long ttl = m.containsKey("ttl") ? m.get("ttl").duration("pool ttl").toSeconds() : -1;
            try { // the pool's own rules (the alternate tier reads no path metrics), checked where they live
                new dev.gslb.dns.wideip.Pool(name, members, trial, maxAnswers, ttl, fallback);
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
            if (pools.put(name, new PoolSpec(name, members, methods, maxAnswers, ttl, fallback)) != null) {
                throw n.error("pool " + name + " is defined twice");
            }
        }

        private WideIpSpec wideIp(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m =
                    n.map("wide IP", Set.of("name", "pools", "ttl", "pool-method", "failure", "decision-log"));
            Name name = name(required(n, m, "name", "wide IP"), "wide IP name");
            List<PoolSpec> wipPools = new ArrayList<>();
            for (YamlNode p : required(n, m, "pools", "wide IP").list("wide IP pools")) {
                String pool = p.scalar("pool name");
                if (!pools.containsKey(pool)) {
                    throw p.error("wide IP " + name + " names pool " + pool + ", which is not defined; defined: "
                            + pools.keySet());
                }
                wipPools.add(pools.get(pool));
            }
            long ttl =
                    m.containsKey("ttl") ? m.get("ttl").duration("wide IP ttl").toSeconds() : WideIp.DEFAULT_TTL;
            WideIp.PoolMethod poolMethod = WideIp.PoolMethod.GLOBAL_AVAILABILITY;
            if (m.containsKey("pool-method")) {
                String pm = m.get("pool-method").scalar("pool-method");
                poolMethod = switch (pm) {
                    case "global-availability" -> WideIp.PoolMethod.GLOBAL_AVAILABILITY;
                    case "round-robin" -> WideIp.PoolMethod.ROUND_ROBIN;
                    default ->
                        throw m.get("pool-method").error("pool-method must be global-availability or round-robin");
                };
            }
            Failure failure = m.containsKey("failure") ? failure(m.get("failure")) : Failure.DEFAULT;
            boolean log = m.containsKey("decision-log") && bool(m.get("decision-log"), "decision-log");
            return new WideIpSpec(name, wipPools, poolMethod, ttl, failure, log);
        }

        /** failure: {rcode: noerror|nxdomain|refused|servfail, ttl: 30} or {fallback-ip: [addr...], ttl: 30}. */
        private Failure failure(YamlNode n) throws ConfigException {
            Map<String, YamlNode> m = n.map("failure", Set.of("rcode", "fallback-ip", "ttl"));
            long ttl =
                    m.containsKey("ttl") ? m.get("ttl").duration("failure ttl").toSeconds() : 30;
            if (m.containsKey("fallback-ip")) {
                List<InetAddress> addresses = new ArrayList<>();
                for (YamlNode a : m.get("fallback-ip").list("fallback-ip")) {
                    addresses.add(ip(a));
                }
                return new Failure(Failure.Kind.FALLBACK_IP, addresses, ttl);
            }
            String rcode = m.containsKey("rcode") ? m.get("rcode").scalar("rcode") : "noerror";
            Failure.Kind kind = switch (rcode) {
                case "noerror", "nodata" -> Failure.Kind.NODATA;
                case "nxdomain" -> Failure.Kind.NXDOMAIN;
                case "refused" -> Failure.Kind.REFUSED;
                case "servfail" -> Failure.Kind.SERVFAIL;
                default -> throw m.get("rcode").error("failure rcode must be noerror, nxdomain, refused or servfail");
            };
            return new Failure(kind, List.of(), ttl);
        }

        /** sync: peer protocol settings (README "Peer sync"). */
        private dev.gslb.sync.SyncSettings sync(YamlNode n, GslbConfig.Probing probing) throws ConfigException {
            List<InetSocketAddress> listen =
                    List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), SyncSettings.DEFAULT_PORT));
            var d = dev.gslb.sync.SyncSettings.of(
                    listen,
                    base.resolve("var/peers"),
                    java.time.Duration.ofSeconds(10),
                    java.time.Duration.ofSeconds(30),
                    probing.proximity().pathTtl());
            if (n == null) {
                return d;
            }
            Map<String, YamlNode> m = n.map(
                    "sync",
                    Set.of(
                            "listen",
                            "advertise",
                            "peers-file",
                            "identity",
                            "heartbeat",
                            "dead-after",
                            "path-ttl",
                            "health-ttl",
                            "probe-ttl",
                            "queue",
                            "join-token-ttl",
                            "handshake-timeout",
                            "max-handshakes",
                            "max-clock-skew",
                            "peer-items-per-second"));
            if (m.containsKey("listen")) {
                listen = new ArrayList<>();
                for (YamlNode a : m.get("listen").list("sync listen")) {
                    listen.add(address(a, "sync listen address", SyncSettings.DEFAULT_PORT));
                }
            }
            List<InetSocketAddress> advertise = new ArrayList<>();
            if (m.containsKey("advertise")) {
                for (YamlNode a : m.get("advertise").list("sync advertise")) {
                    advertise.add(address(a, "sync advertise address", SyncSettings.DEFAULT_PORT));
                }
            }
            Path peers = m.containsKey("peers-file")
                    ? base.resolve(m.get("peers-file").scalar("peers-file"))
                    : d.peersFile();
            Path identity = m.containsKey("identity")
                    ? base.resolve(m.get("identity").scalar("identity"))
                    : peers.resolveSibling("sync-identity.pem");
            var heartbeat = duration(m, "heartbeat", d.heartbeat());
            var dead = duration(m, "dead-after", d.deadAfter());
            if (dead.compareTo(heartbeat.multipliedBy(2)) < 0) {
                throw n.error("sync dead-after must be at least twice the heartbeat");
            }
            return new dev.gslb.sync.SyncSettings(
                    listen,
                    advertise,
                    peers,
                    identity,
                    heartbeat,
                    dead,
                    duration(m, "path-ttl", d.pathTtl()),
                    duration(m, "health-ttl", d.healthTtl()),
                    duration(m, "probe-ttl", d.probeTtl()),
                    m.containsKey("queue") ? m.get("queue").integer("queue", 1, 10_000_000) : d.queue(),
                    duration(m, "join-token-ttl", d.joinTokenTtl()),
                    duration(m, "handshake-timeout", d.handshakeTimeout()),
                    m.containsKey("max-handshakes")
                            ? m.get("max-handshakes").integer("max-handshakes", 1, 100_000)
                            : d.maxHandshakes(),
                    duration(m, "max-clock-skew", d.maxClockSkew()),
                    m.containsKey("peer-items-per-second")
                            ? m.get("peer-items-per-second").integer("peer-items-per-second", 1, 100_000_000)
                            : d.peerItemsPerSecond());
        }

        private static java.time.Duration duration(Map<String, YamlNode> m, String key, java.time.Duration otherwise)
                throws ConfigException {
            return m.containsKey(key) ? m.get(key).duration(key) : otherwise;
        }

        private GslbConfig.LoadBalancing loadBalancing(YamlNode n) throws ConfigException {
            GslbConfig.LoadBalancing d = GslbConfig.LoadBalancing.DEFAULTS;
            if (n == null) {
                return d;
            }
            Map<String, YamlNode> m = n.map(
                    "load-balancing",
                    Set.of(
                            "rtt-margin-percent",
                            "rtt-margin",
                            "persistence-prefix-v4",
                            "persistence-prefix-v6",
                            "unknown-health"));
            String unknown =
                    m.containsKey("unknown-health") ? m.get("unknown-health").scalar("unknown-health") : "available";
            if (!unknown.equals("available") && !unknown.equals("unavailable")) {
                throw m.get("unknown-health").error("unknown-health must be available or unavailable");
            }
            LowestRoundTripTime.Settings rtt = LowestRoundTripTime.Settings.DEFAULTS;
            StaticPersistence.Settings persistence = StaticPersistence.Settings.DEFAULTS;
            return new GslbConfig.LoadBalancing(
                    MethodSettings.of(
                            new LowestRoundTripTime.Settings(
                                    m.containsKey("rtt-margin-percent")
                                            ? m.get("rtt-margin-percent").integer("rtt-margin-percent", 0, 99)
                                            : rtt.marginPercent(),
                                    m.containsKey("rtt-margin")
                                            ? m.get("rtt-margin")
                                                            .duration("rtt-margin")
                                                            .toNanos()
                                                    / 1000
                                            : rtt.marginMicros()),
                            new StaticPersistence.Settings(
                                    m.containsKey("persistence-prefix-v4")
                                            ? m.get("persistence-prefix-v4").integer("persistence-prefix-v4", 1, 32)
                                            : persistence.prefixV4(),
                                    m.containsKey("persistence-prefix-v6")
                                            ? m.get("persistence-prefix-v6").integer("persistence-prefix-v6", 1, 128)
                                            : persistence.prefixV6())),
                    unknown.equals("available"));
        }

        private static boolean bool(YamlNode n, String what) throws ConfigException {
            String v = n.scalar(what);
            if (!v.equals("true") && !v.equals("false")) {
                throw n.error(what + " must be true or false");
            }
            return Boolean.parseBoolean(v);
        }

        private YamlNode required(YamlNode parent, Map<String, YamlNode> m, String key, String what)
                throws ConfigException {
            YamlNode v = m.get(key);
            if (v == null) {
                throw parent.error(what + " needs '" + key + ":'");
            }
            return v;
        }

        private DataCenter dataCenter(YamlNode n) throws ConfigException {
            String name = n.scalar("data center");
            DataCenter dc = dataCenters.get(name);
            if (dc == null) {
                throw n.error("data center " + name + " is not defined under 'datacenters:'; defined: "
                        + dataCenters.keySet());
            }
            return dc;
        }

        private static Name name(YamlNode n, String what) throws ConfigException {
            try {
                return Name.fromString(n.scalar(what), Name.root);
            } catch (TextParseException e) {
                throw n.error(what + " is not a valid domain name: " + e.getMessage());
            }
        }

        private static InetAddress ip(YamlNode n) throws ConfigException {
            String v = n.scalar("address");
            try {
                return Address.parse(v).inetAddress();
            } catch (IllegalArgumentException e) {
                throw n.error(e.getMessage());
            }
        }

        /** "127.0.0.1:5353", "[::1]:5353", or a bare address with the default port. */
        static InetSocketAddress address(YamlNode n, String what, int defaultPort) throws ConfigException {
            String v = n.scalar(what);
            try {
                return ListenAddress.parse(v, defaultPort);
            } catch (IllegalArgumentException e) {
                throw n.error(what + ": " + e.getMessage());
            }
        }
    }

    /** The host name, read without a DNS lookup (which could hang at start-up). */
    static String defaultInstanceName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            String s = Files.readString(Path.of("/etc/hostname")).trim();
            return s.isEmpty() ? "gslb" : s;
        } catch (IOException e) {
            return "gslb";
        }
    }
}
