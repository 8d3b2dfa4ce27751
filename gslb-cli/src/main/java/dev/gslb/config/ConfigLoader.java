package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.config.ConfigFile.LinkEntry;
import dev.gslb.config.ConfigFile.PoolEntry;
import dev.gslb.config.ConfigFile.TopologyRecordEntry;
import dev.gslb.config.ConfigFile.VirtualServerEntry;
import dev.gslb.config.ConfigFile.WideIpEntry;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.site.DataCenter;
import dev.gslb.dns.site.VirtualServer;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.dns.zone.Zones;
import dev.gslb.probe.Probing;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.ProgramAllowList;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.server.admin.AdminSettings;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsFile;
import dev.gslb.settings.SettingsModule;
import dev.gslb.settings.SettingsReader;
import dev.gslb.sync.SyncSettings;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.LiveTopology;
import dev.gslb.topology.TopologyRecord;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * Reads the YAML configuration (see the README for every key and default): Jackson binds each
 * section to the record of the module that owns it, and this class resolves what the sections say
 * of each other (a pool naming a server, a record naming a data center or region, a wide IP inside
 * a zone), pointing each error at its line and column. {@code config check}, {@code serve} and
 * {@code config reload} all load through here. Paths in the file are relative to the file's folder;
 * the embedded default's are relative to the installation folder.
 */
public final class ConfigLoader {
    public static final String EMBEDDED_NAME = "embedded default config";
    private static final String EMBEDDED_RESOURCE = "/default-config.yaml";

    /** Methods built to check a configuration, never run. */
    private static final MethodRegistry UNBOUND_METHODS = new MethodRegistry(MethodRegistry.Services.UNBOUND);

    private static final SettingsReader READER = new SettingsReader(
            new SettingsModule().scalar(Cidr.class, Cidr::parse).scalar(Name.class, ConfigLoader::name));

    private ConfigLoader() {}

    public static GslbConfig loadEmbedded(Path home) throws SettingsException {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(EMBEDDED_RESOURCE)) {
            return parse(EMBEDDED_NAME, new String(in.readAllBytes(), StandardCharsets.UTF_8), home);
        } catch (IOException e) {
            throw new SettingsException(EMBEDDED_NAME + ": cannot read: " + e.getMessage());
        }
    }

    public static GslbConfig load(Path file) throws SettingsException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SettingsException(file + ": cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text, file.toAbsolutePath().getParent());
    }

    public static GslbConfig parse(String label, String text, Path base) throws SettingsException {
        return new Resolver(READER.read(label, text, base, ConfigFile.class), base)
                .resolve(new GslbConfig.ConfigText(label, text, base));
    }

    private static Name name(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid domain name: " + e.getMessage(), e);
        }
    }

    /** Resolves the names the sections give each other; each error points at the name that is wrong. */
    private static final class Resolver {
        private final SettingsFile<ConfigFile> file;
        private final ConfigFile c;
        private final Path base;
        private final Map<String, DataCenter> dataCenters = new LinkedHashMap<>();
        private final Map<String, MonitorSpec> monitors = new LinkedHashMap<>();
        private final Map<String, LinkSpec> links = new LinkedHashMap<>();
        private final Map<String, VirtualServer> virtualServers = new LinkedHashMap<>();
        private final Map<String, PoolSpec> pools = new LinkedHashMap<>();
        private final List<HealthTarget> healthTargets = new ArrayList<>();

        Resolver(SettingsFile<ConfigFile> file, Path base) {
            this.file = file;
            this.c = file.value();
            this.base = base;
        }

        GslbConfig resolve(GslbConfig.ConfigText source) throws SettingsException {
            for (int i = 0; i < c.datacenters().size(); i++) {
                String name = c.datacenters().get(i);
                if (name == null || dataCenters.put(name, new DataCenter(name)) != null) {
                    throw file.error("data center " + name + " is defined twice or empty", "datacenters", i);
                }
            }
            List<Zone> zones = zones();
            var programs =
                    new ProgramAllowList(requireNonNullElse(c.monitorPrograms(), base.resolve("monitor-programs")));
            for (int i = 0; i < c.monitors().size(); i++) {
                MonitorSpec m;
                try { // from this file or a peer's, an external monitor runs only a program of this host's folder
                    m = programs.place(c.monitors().get(i));
                } catch (IllegalArgumentException e) {
                    throw file.error(e.getMessage(), "monitors", i, "command", 0);
                }
                if (monitors.put(m.name(), m) != null) {
                    throw file.error("monitor " + m.name() + " is defined twice", "monitors", i);
                }
            }
            for (int i = 0; i < c.links().size(); i++) {
                link(c.links().get(i), i);
            }
            for (int i = 0; i < c.virtualServers().size(); i++) {
                virtualServer(c.virtualServers().get(i), i);
            }
            for (int i = 0; i < c.pools().size(); i++) {
                pool(c.pools().get(i), i);
            }
            List<WideIpSpec> wideIps = wideIps(new Zones(zones));
            Probing probing = c.probe() == null ? Probing.defaults(base) : c.probe();
            SyncSettings sync = c.sync() == null ? SyncSettings.defaults(base) : c.sync();
            if (!file.has("sync", "path-ttl")) { // the README: paths are sent with the proximity table's TTL
                sync = sync.withPathTtl(probing.proximity().pathTtl());
            }
            DnsSettings dns = requireNonNullElse(c.dns(), DnsSettings.DEFAULTS);
            GslbConfig config = new GslbConfig(
                    instance(),
                    dns.listener(),
                    dns.answers(),
                    requireNonNullElse(c.admin(), AdminSettings.defaults(base)),
                    List.copyOf(dataCenters.values()),
                    zones,
                    wideIps,
                    requireNonNullElse(c.loadBalancing(), GslbConfig.LoadBalancing.DEFAULTS),
                    topology(),
                    probing,
                    List.copyOf(healthTargets),
                    List.copyOf(links.values()),
                    sync,
                    c.alerts(),
                    requireNonNullElse(c.statistics(), StatisticsSettings.DEFAULTS),
                    source,
                    c.config() == null
                            || c.config().sync() == null
                            || c.config().sync());
            try { // a trial build; each rule was checked where it is written
                config.authority(UNBOUND_METHODS);
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage());
            }
            return config;
        }

        private InstanceIdentity instance() throws SettingsException {
            var i = c.instance();
            String name = i == null || i.name() == null ? defaultInstanceName() : i.name();
            String dc = i == null || i.datacenter() == null
                    ? dataCenters.keySet().stream().findFirst().orElse("")
                    : dataCenter(i.datacenter(), "instance", "datacenter").name();
            return new InstanceIdentity(name, dc);
        }

        private List<Zone> zones() throws SettingsException {
            if (c.zones().isEmpty()) {
                throw file.error("no zones: add at least one under 'zones:' (file: path/to/zone)");
            }
            List<Zone> zones = new ArrayList<>();
            for (int i = 0; i < c.zones().size(); i++) {
                var z = c.zones().get(i);
                if (z.file() == null) {
                    throw file.error("zone needs 'file:' (path to an RFC 1035 zone file)", "zones", i);
                }
                if (!Files.isRegularFile(z.file())) {
                    throw file.error("zone file " + z.file() + " does not exist", "zones", i, "file");
                }
                try {
                    zones.add(ZoneFile.load(z.file(), z.origin()));
                } catch (ZoneException e) { // where the zone is configured, then the zone file's own file:line
                    throw file.error(
                            "zone " + (z.origin() == null ? z.file().getFileName() : z.origin()) + ": "
                                    + e.getMessage(),
                            "zones",
                            i);
                }
            }
            return List.copyOf(zones);
        }

        private void virtualServer(VirtualServerEntry v, int i) throws SettingsException {
            required(v.name(), "virtual server", "name", "virtual-servers", i);
            required(v.address(), "virtual server", "address", "virtual-servers", i);
            required(v.datacenter(), "virtual server", "datacenter", "virtual-servers", i);
            DataCenter dc = dataCenter(v.datacenter(), "virtual-servers", i, "datacenter");
            String link = linkOf(v, dc, i);
            VirtualServer vs;
            try {
                vs = new VirtualServer(
                        v.name(),
                        v.address(),
                        dc,
                        Bounds.within("ratio", requireNonNullElse(v.ratio(), 1), 0, 1_000_000),
                        Bounds.within("order", requireNonNullElse(v.order(), 0), 0, 1_000_000),
                        link);
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "virtual-servers", i);
            }
            if (virtualServers.put(v.name(), vs) != null) {
                throw file.error("virtual server " + v.name() + " is defined twice", "virtual-servers", i);
            }
            healthTargets.add(new HealthTarget(
                    v.name(), v.address(), dc.name(), monitorsNamed(v.monitors(), "virtual-servers", i)));
        }

        /** The link a server names, or else the only link of its data center, or null. */
        private String linkOf(VirtualServerEntry v, DataCenter dc, int i) throws SettingsException {
            if (v.link() == null) {
                List<LinkSpec> own = links.values().stream()
                        .filter(l -> l.dataCenter().equals(dc.name()))
                        .toList();
                return own.size() == 1 ? own.getFirst().name() : null;
            }
            LinkSpec l = links.get(v.link());
            if (l == null) {
                throw file.error(
                        "link " + v.link() + " is not defined under 'links:'; defined: " + links.keySet(),
                        "virtual-servers",
                        i,
                        "link");
            }
            if (!l.dataCenter().equals(dc.name())) {
                throw file.error(
                        "virtual server " + v.name() + " is in " + dc.name() + " but link " + l.name() + " is in "
                                + l.dataCenter(),
                        "virtual-servers",
                        i,
                        "link");
            }
            return l.name();
        }

        /** The monitors a server or link names, each defined under 'monitors:'. */
        private List<MonitorSpec> monitorsNamed(List<String> given, String section, int i) throws SettingsException {
            List<String> names = ConfigFile.orEmpty(given);
            List<MonitorSpec> specs = new ArrayList<>();
            for (int m = 0; m < names.size(); m++) {
                MonitorSpec spec = monitors.get(names.get(m));
                if (spec == null) {
                    throw file.error(
                            "monitor " + names.get(m) + " is not defined under 'monitors:'; defined: "
                                    + monitors.keySet(),
                            section,
                            i,
                            "monitors",
                            m);
                }
                specs.add(spec);
            }
            return specs;
        }

        /** links: name, datacenter, capacity, limit-in, limit-out, resume, traffic, gateways, monitors. */
        private void link(LinkEntry l, int i) throws SettingsException {
            required(l.name(), "link", "name", "links", i);
            required(l.datacenter(), "link", "datacenter", "links", i);
            String dc = dataCenter(l.datacenter(), "links", i, "datacenter").name();
            Bandwidth capacity = bandwidth(l.capacity(), null, i, "capacity");
            Bandwidth in = bandwidth(l.limitIn(), capacity, i, "limit-in");
            Bandwidth out = bandwidth(l.limitOut(), capacity, i, "limit-out");
            String resume = requireNonNullElse(l.resume(), "90%");
            if (in != null || out != null) { // checked here to point at the key; a percentage is of each limit
                bandwidth(resume, in != null ? in : out, i, "resume");
            }
            List<MonitorSpec> linkMonitors = monitorsNamed(l.monitors(), "links", i);
            TrafficSpec traffic = l.traffic();
            try {
                LinkSpec spec = new LinkSpec(
                        l.name(),
                        dc,
                        capacity,
                        in,
                        out,
                        LinkSpec.resume(in, resume),
                        LinkSpec.resume(out, resume),
                        traffic,
                        ConfigFile.orEmpty(l.gateways()),
                        linkMonitors);
                if (links.put(l.name(), spec) != null) {
                    throw new IllegalArgumentException("link " + l.name() + " is defined twice");
                }
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "links", i);
            }
        }

        private Bandwidth bandwidth(String text, Bandwidth capacity, int i, String key) throws SettingsException {
            try {
                return text == null ? null : Bandwidth.parse(text, capacity);
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "links", i, key);
            }
        }

        private void pool(PoolEntry p, int i) throws SettingsException {
            required(p.name(), "pool", "name", "pools", i);
            required(p.members(), "pool", "members", "pools", i);
            List<VirtualServer> members = new ArrayList<>();
            for (int m = 0; m < p.members().size(); m++) {
                VirtualServer vs = virtualServers.get(p.members().get(m));
                if (vs == null) {
                    throw file.error(
                            "pool " + p.name() + " names virtual server "
                                    + p.members().get(m) + ", which is not defined; defined: "
                                    + virtualServers.keySet(),
                            "pools",
                            i,
                            "members",
                            m);
                }
                members.add(vs);
            }
            if (members.isEmpty()) {
                throw file.error("pool " + p.name() + " has no members", "pools", i);
            }
            List<String> given = Arrays.asList(p.preferred(), p.alternate(), p.fallback());
            MethodSettings own = MethodSettings.DEFAULTS;
            if (p.qos() != null) { // the pool's coefficients over the global ones
                try {
                    own = MethodSettings.of(p.qos()
                            .over(requireNonNullElse(c.loadBalancing(), GslbConfig.LoadBalancing.DEFAULTS)
                                    .methods()
                                    .orDefault(QualityOfService.Settings.DEFAULTS)));
                } catch (IllegalArgumentException e) {
                    throw file.error(e.getMessage(), "pools", i, "qos");
                }
            }
            List<String> methods = new ArrayList<>();
            List<LoadBalancingMethod> trial = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                String method = requireNonNullElse(given.get(t), MethodRegistry.DEFAULT_CHAIN.get(t));
                try {
                    trial.add(UNBOUND_METHODS.create(method, own));
                } catch (IllegalArgumentException e) {
                    throw file.error(e.getMessage(), "pools", i, Pool.TIER_NAMES.get(t));
                }
                methods.add(method);
            }
            List<InetAddress> fallback = ConfigFile.orEmpty(p.fallbackIp());
            long ttl = p.ttl() == null ? -1 : p.ttl().toSeconds();
            int maxAnswers;
            try { // the pool's own rules (the alternate tier reads no path metrics), checked where they live
                maxAnswers = Bounds.within("max-answers", requireNonNullElse(p.maxAnswers(), 1), 1, 16);
                new Pool(p.name(), members, trial, maxAnswers, ttl, fallback);
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i);
            }
            if (pools.put(p.name(), new PoolSpec(p.name(), members, methods, maxAnswers, ttl, fallback, own)) != null) {
                throw file.error("pool " + p.name() + " is defined twice", "pools", i);
            }
        }

        private List<WideIpSpec> wideIps(Zones served) throws SettingsException {
            List<WideIpSpec> wideIps = new ArrayList<>();
            Set<Name> names = new HashSet<>();
            for (int i = 0; i < c.wideIps().size(); i++) {
                WideIpEntry w = c.wideIps().get(i);
                required(w.name(), "wide IP", "name", "wide-ips", i);
                required(w.pools(), "wide IP", "pools", "wide-ips", i);
                List<PoolSpec> wipPools = new ArrayList<>();
                for (int p = 0; p < w.pools().size(); p++) {
                    PoolSpec pool = pools.get(w.pools().get(p));
                    if (pool == null) {
                        throw file.error(
                                "wide IP " + w.name() + " names pool "
                                        + w.pools().get(p) + ", which is not defined; defined: " + pools.keySet(),
                                "wide-ips",
                                i,
                                "pools",
                                p);
                    }
                    wipPools.add(pool);
                }
                try {
                    Authority.checkPlacement(served, w.name());
                    if (!names.add(w.name())) {
                        throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
                    }
                    wideIps.add(new WideIpSpec(
                            w.name(),
                            wipPools,
                            requireNonNullElse(w.poolMethod(), WideIp.PoolMethod.GLOBAL_AVAILABILITY),
                            w.ttl() == null ? WideIp.DEFAULT_TTL : w.ttl().toSeconds(),
                            requireNonNullElse(w.failure(), Failure.DEFAULT),
                            Boolean.TRUE.equals(w.decisionLog()),
                            w.persistenceTtl() == null
                                    ? 0
                                    : Bounds.within(
                                            "persistence-ttl (seconds)",
                                            (int) Math.min(
                                                    Integer.MAX_VALUE,
                                                    w.persistenceTtl().toSeconds()),
                                            0,
                                            7 * 86_400)));
                } catch (IllegalArgumentException e) {
                    throw file.error(e.getMessage(), "wide-ips", i);
                }
            }
            return List.copyOf(wideIps);
        }

        /** topology: data (files/folders), records (region or cidr -> datacenter, score), watch. */
        private GslbConfig.Topology topology() throws SettingsException {
            var t = c.topology();
            List<Path> data = t == null ? List.of() : ConfigFile.orEmpty(t.data());
            for (int i = 0; i < data.size(); i++) {
                if (!Files.exists(data.get(i))) {
                    throw file.error("topology data " + data.get(i) + " does not exist", "topology", "data", i);
                }
            }
            List<TopologyRecordEntry> given = t == null ? List.of() : ConfigFile.orEmpty(t.records());
            List<TopologyRecord> records = new ArrayList<>();
            for (int i = 0; i < given.size(); i++) {
                TopologyRecordEntry r = given.get(i);
                if ((r.region() == null) == (r.cidr() == null)) {
                    throw file.error(
                            "a topology record needs exactly one of 'region:' (a loaded list) or 'cidr:'",
                            "topology",
                            "records",
                            i);
                }
                required(r.datacenter(), "topology record", "datacenter", "topology", "records", i);
                String dc = dataCenter(r.datacenter(), "topology", "records", i, "datacenter")
                        .name();
                long score = requireNonNullElse(r.score(), 100);
                try {
                    records.add(new TopologyRecord(
                            r.cidr() != null ? r.cidr().toString() : r.region(),
                            dc,
                            score,
                            file.where("topology", "records", i)));
                } catch (IllegalArgumentException e) {
                    throw file.error(e.getMessage(), "topology", "records", i);
                }
            }
            boolean watch = t == null || t.watch() == null || t.watch();
            return new GslbConfig.Topology(new LiveTopology.Spec(data, records, dataCenters.keySet()), watch);
        }

        private DataCenter dataCenter(String name, Object... path) throws SettingsException {
            DataCenter dc = dataCenters.get(name);
            if (dc == null) {
                throw file.error(
                        "data center " + name + " is not defined under 'datacenters:'; defined: "
                                + dataCenters.keySet(),
                        path);
            }
            return dc;
        }

        /** A key a section cannot do without: its absence is an error at the section. */
        private void required(Object value, String what, String key, Object... path) throws SettingsException {
            if (value == null) {
                throw file.error(what + " needs '" + key + ":'", path);
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
