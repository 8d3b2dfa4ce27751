package dev.gslb.server;

import dev.gslb.api.Json;
import dev.gslb.api.Refusal;
import dev.gslb.api.Reloaded;
import dev.gslb.api.ServiceHealth;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.StaticPersistence;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.dns.wideip.PersistenceTable;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.probe.Prober;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.probers.IcmpProber;
import dev.gslb.probe.probers.TcpProber;
import dev.gslb.probe.probers.UdpProber;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.probe.store.ProximityStore;
import dev.gslb.server.admin.AdminServer;
import dev.gslb.server.admin.LdnsApi;
import dev.gslb.server.admin.LinkApi;
import dev.gslb.server.admin.ResolveApi;
import dev.gslb.server.admin.StatusPage;
import dev.gslb.server.admin.TopologyApi;
import dev.gslb.server.alert.Alerts;
import dev.gslb.server.alert.StateChanges;
import dev.gslb.settings.SettingsException;
import dev.gslb.sync.PeerSync;
import dev.gslb.sync.PersistenceExchange;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.LiveTopology;
import dev.gslb.topology.load.TopologyWatcher;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance, wired from a {@link GslbConfig}: DNS listeners, topology table, LDNS
 * proximity table with its probers, scheduler and H2 store, health monitors, admin API.
 */
public final class GslbServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    private final GslbConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final LiveTopology topology;
    private final ProximityTable proximity;
    private final ProximityStore store;
    private final IcmpProber icmp;
    private final ProbeScheduler scheduler;
    private final HealthMonitor health;
    private final LinkMonitor links;
    private final PeerSync sync;
    private final SyncGroup group;
    private final SiteView site;
    private final Alerts alerts;
    private StateChanges alertSources;
    private final MethodRegistry methods;
    private final WideIpResolver resolver;
    private final Responder responder;
    private final DnsServer dns;
    private final AdminServer admin;
    private final ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("housekeeping").factory());
    private TopologyWatcher watcher;

    public GslbServer(GslbConfig fromFile) throws IOException, TopologyException, SQLException {
        try {
            this.group = new SyncGroup(
                    fromFile,
                    fromFile.sync().peersFile().toAbsolutePath().getParent().resolve("config"),
                    Clock.systemUTC());
        } catch (SettingsException e) {
            throw new IOException(e.getMessage(), e);
        }
        GslbConfig config = group.running();
        this.config = config;
        this.reloadSource = () -> fromFile;
        this.topology = config.loadTopology();
        if (!group.loads().isEmpty()) { // what `gslb topology load` added, kept with the configuration
            topology.prepare(config.topology().spec(), group.loads()).commit();
        }
        dev.gslb.probe.schedule.Probing probing = config.probing();
        this.proximity = new ProximityTable(probing.proximity(), Clock.systemUTC());
        this.store = new ProximityStore(probing.store(), proximity);
        ProbeSettings ps = probing.probes();
        this.icmp = new IcmpProber(ps.source());
        List<Prober> probers = List.of(
                DnsProber.dot(ps.source(), ps.dnsPort()),
                DnsProber.rev(ps.source(), ps.dnsPort()),
                new UdpProber(ps.source(), ps.udpPort()),
                new TcpProber(ps.source(), ps.dnsPort()),
                icmp);
        this.scheduler = new ProbeScheduler(
                proximity, ps, config.instance().dataCenter(), config.instance().name(), probers, registry);
        this.health = new HealthMonitor(config.health(), Clock.systemUTC(), registry);
        this.links = new LinkMonitor(
                config.links(),
                config.instance().dataCenter(),
                config.instance().name(),
                Clock.systemUTC(),
                registry);
        this.sync = new PeerSync(
                config.sync(),
                config.instance().name(),
                config.instance().dataCenter(),
                proximity,
                health,
                links,
                scheduler,
                () -> group.running().dataCenters().stream() // a reload may change them
                        .map(dev.gslb.dns.site.DataCenter::name)
                        .collect(java.util.stream.Collectors.toSet()),
                Clock.systemUTC(),
                registry);
        sync.exchangeConfig(group);
        group.attach(this::apply, sync::publishConfig, sync::tellConfigState);
        GslbConfig.LoadBalancing lb = config.loadBalancing();
        this.site = new SiteView(sync, links, lb.unknownIsAvailable());
        this.alerts = new Alerts(config.alerts(), config.instance().name(), Clock.systemUTC(), registry);
        this.methods = new MethodRegistry(new MethodRegistry.Services(
                proximity, topology::table, probing.proximity().pathTtl().toMillis(), lb.methods(), site));
        this.resolver = new WideIpResolver(
                site,
                sync.probeRequests(),
                registry,
                new dev.gslb.dns.wideip.AnswerStatistics(config.statistics().maxWideIps()),
                new PersistenceTable(lb.methods().orDefault(StaticPersistence.Settings.DEFAULTS)));
        sharePersistence(resolver.persistence(), sync);
        DnsMetrics metrics = new DnsMetrics(registry);
        this.responder =
                new Responder(config.authority(methods), resolver, config.instance(), metrics, config.answers());
        this.dns = new DnsServer(config.dns(), responder, metrics);
        List<AdminServer.Route> routes = new ArrayList<>();
        routes.add(new AdminServer.Route("GET", "/health", r -> {
            List<String> failures = failures();
            return AdminServer.Response.json(
                    failures.isEmpty() ? 200 : 503,
                    Json.compact(new ServiceHealth(
                            failures.isEmpty() ? "up" : "degraded",
                            config.instance().name(),
                            config.instance().dataCenter(),
                            authority().zones().all().size(),
                            authority().wideIps().size(),
                            failures)));
        }));
        routes.add(new AdminServer.Route(
                "GET",
                "/metrics",
                r -> new AdminServer.Response(200, registry.scrape(), "text/plain; version=0.0.4; charset=utf-8")));
        routes.addAll(new TopologyApi(topology, group::topologyLoaded).routes());
        LdnsApi ldnsApi = new LdnsApi(
                proximity,
                scheduler,
                config.dataCenters().stream()
                        .map(dev.gslb.dns.site.DataCenter::name)
                        .collect(java.util.stream.Collectors.toSet()));
        routes.addAll(ldnsApi.routes());
        ResolveApi resolveApi = new ResolveApi(this::authority, resolver);
        routes.addAll(resolveApi.routes());
        routes.add(new AdminServer.Route("POST", "/config/reload", r -> reloadResponse()));
        routes.add(new AdminServer.Route("GET", "/config/status", r -> AdminServer.Response.ok(configStatus())));
        routes.add(new AdminServer.Route("GET", "/config/diff", r -> {
            String peer = r.param("peer");
            if (peer == null || peer.isBlank()) {
                throw new IllegalArgumentException("give ?peer=NAME");
            }
            List<String> lines = group.diff(peer, 200);
            return AdminServer.Response.ok(new dev.gslb.api.ConfigDiff(peer, lines.isEmpty(), lines));
        }));
        routes.addAll(new dev.gslb.server.admin.PeerApi(sync).routes());
        routes.add(new AdminServer.Route("GET", "/health/servers", r -> AdminServer.Response.ok(serverStatuses())));
        LinkApi linkApi = new LinkApi(links, sync, this::authority);
        routes.addAll(linkApi.routes());
        routes.addAll(new StatusPage(new StatusPage.Sources(
                        config.instance().name(),
                        config.instance().dataCenter(),
                        config.dataCenters().stream()
                                .map(dev.gslb.dns.site.DataCenter::name)
                                .toList(),
                        this::authority,
                        linkApi::statuses,
                        this::serverStatuses,
                        sync,
                        this::configStatus,
                        proximity,
                        ldnsApi,
                        resolveApi,
                        resolver::statistics,
                        topology))
                .routes());
        routes.add(new AdminServer.Route(
                "GET",
                "/stats",
                r -> AdminServer.Response.ok(resolver.statistics()
                        .view(
                                System.currentTimeMillis(),
                                r.param("wide-ip") == null ? null : wideIpName(r.param("wide-ip"))))));
        routes.add(new AdminServer.Route(
                "GET",
                "/stats/ldns",
                r -> AdminServer.Response.ok(resolver.statistics().ldns(System.currentTimeMillis(), (hi, lo) -> {
                    var m = topology.table().lookup(hi, lo);
                    return m == null ? null : m.region();
                }))));
        this.admin = new AdminServer(config.admin(), routes, registry);
        for (var c : List.<Map.Entry<String, java.util.function.ToDoubleFunction<ProximityTable>>>of(
                Map.entry("admitted", ProximityTable::admitted),
                Map.entry("evicted", ProximityTable::evicted),
                Map.entry("refused", ProximityTable::refused))) {
            io.micrometer.core.instrument.FunctionCounter.builder("ldns_entries", proximity, c.getValue())
                    .tag("outcome", c.getKey())
                    .description("New LDNS in the proximity table: admitted, evicted when full, refused")
                    .register(registry);
        }
        site.registerLinkGauges(registry);
    }

    /** Persistence entries made here go to the peers; theirs come in (README "Persistence"). */
    private static void sharePersistence(PersistenceTable table, PeerSync sync) {
        table.onRecorded(e -> sync.publishPersistence(
                new PersistenceExchange.Persisted(e.wideIp().toString(), e.hi(), e.lo(), e.server(), e.expiresAt())));
        sync.exchangePersistence(new PersistenceExchange() {
            @Override
            public void received(Persisted p) {
                try {
                    table.received(
                            new PersistenceTable.Entry(
                                    org.xbill.DNS.Name.fromString(p.wideIp()),
                                    p.hi(),
                                    p.lo(),
                                    p.server(),
                                    p.expiresAt()),
                            System.currentTimeMillis());
                } catch (org.xbill.DNS.TextParseException e) {
                    log.debug("a peer's persistence entry names no wide IP: {}", p.wideIp());
                }
            }

            @Override
            public void forEachLive(java.util.function.Consumer<Persisted> out) {
                table.forEachLive(
                        System.currentTimeMillis(),
                        e -> out.accept(
                                new Persisted(e.wideIp().toString(), e.hi(), e.lo(), e.server(), e.expiresAt())));
            }
        });
    }

    private dev.gslb.api.ConfigStatus configStatus() {
        return group.status(sync.status().stream().map(PeerSync.Status::name).toList());
    }

    /** `gslb health`: each server's status with its worst-case switch-over time. */
    private List<HealthMonitor.Status> serverStatuses() {
        Authority a = authority();
        return health.statuses().stream()
                .map(st -> st.withSwitchOver(health.switchOver(
                        st.name(),
                        java.time.Duration.ofSeconds(
                                a.longestAnswerTtl(vs -> vs.name().equals(st.name()))))))
                .toList();
    }

    private static org.xbill.DNS.Name wideIpName(String text) {
        try {
            return org.xbill.DNS.Name.fromString(text, org.xbill.DNS.Name.root);
        } catch (org.xbill.DNS.TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a domain name");
        }
    }

    public Authority authority() {
        return responder.authority();
    }

    /**
     * Re-reads the configuration file: a change of its shared part is a change made here (the
     * next generation, applied and sent to the peers, README "Sync group"); a configuration that
     * does not load changes nothing. Listeners, probing and links keep their start-up settings
     * (a restart applies those).
     */
    public Reloaded reload() throws SettingsException {
        dev.gslb.sync.ConfigVersion v = group.reloaded(reloadSource.get());
        Authority a = authority();
        return new Reloaded(a.zones().all().size(), a.wideIps().size(), v.generation(), v.origin(), v.digest());
    }

    /**
     * Swaps in a configuration's zones, wide IPs, pools, methods and topology at once, and
     * applies the virtual servers' monitors (unchanged servers keep their state): everything is
     * built first, so a configuration that does not load changes nothing.
     */
    private synchronized void apply(GslbConfig next, List<LiveTopology.Load> loads) throws SettingsException {
        LiveTopology.Prepared t;
        try {
            t = topology.prepare(next.topology().spec(), loads);
        } catch (TopologyException e) {
            throw new SettingsException("the topology does not load:\n" + e.getMessage());
        }
        Authority a;
        try {
            a = next.authority(methods);
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage());
        }
        t.commit();
        responder.replace(a);
        int monitors = health.reconfigure(next.health());
        log.info(
                "configuration applied: {} zone(s), {} wide IP(s), monitors of {} server(s) changed",
                a.zones().all().size(),
                a.wideIps().size(),
                monitors);
    }

    public SyncGroup syncGroup() {
        return group;
    }

    private AdminServer.Response reloadResponse() {
        try {
            return AdminServer.Response.ok(reload());
        } catch (SettingsException | IllegalArgumentException e) {
            log.warn("configuration reload refused; the previous one stays in service:\n{}", e.getMessage());
            return AdminServer.Response.refused(
                    new Refusal(e.getMessage().lines().toList(), "the configuration in service is the previous one"));
        }
    }

    /** Where a reload reads the configuration from (the --config file, or the embedded default). */
    @FunctionalInterface
    public interface ConfigSource {
        GslbConfig get() throws SettingsException;
    }

    private ConfigSource reloadSource;

    public void reloadFrom(ConfigSource source) {
        this.reloadSource = source;
    }

    public void start() throws InterruptedException, IOException {
        DescriptorBudget descriptors = DescriptorBudget.of(config);
        if (!descriptors.fits()) {
            log.warn(descriptors.warning());
        }
        var t = topology.table();
        log.info(
                "topology: {} regions, {} prefixes, {} records{}",
                t.regions().size(),
                t.prefixCount(),
                t.records().size(),
                t.warnings().isEmpty() ? "" : " (" + t.warnings().size() + " warnings: gslb topology list)");
        if (config.topology().watch() && !config.topology().spec().data().isEmpty()) {
            watcher = new TopologyWatcher(topology);
        }
        store.startFlushing(config.probing().flushInterval());
        housekeeping.scheduleWithFixedDelay(this::expireInactiveLdns, 1, 1, TimeUnit.HOURS);
        java.util.Map<String, String> serverDc = new java.util.HashMap<>();
        config.health().forEach(target -> serverDc.put(target.name(), target.dataCenter()));
        alertSources = new StateChanges(
                alerts,
                health,
                serverDc::get,
                links,
                config.instance().dataCenter(),
                sync,
                group::drift,
                java.time.Duration.ofSeconds(1));
        health.start();
        links.start();
        sync.start();
        dns.start();
        admin.start();
    }

    private void expireInactiveLdns() {
        int removed = proximity.expireInactive();
        if (removed > 0) {
            log.info(
                    "removed {} LDNS inactive for {}",
                    removed,
                    proximity.settings().inactiveTtl());
        }
    }

    /** The listeners that cannot go on, a line each (empty while all serve): /health says "degraded". */
    public List<String> failures() {
        List<String> failures = new ArrayList<>(dns.health().failures());
        failures.addAll(sync.listenerFailures());
        if (admin.failure() != null) {
            failures.add(admin.failure());
        }
        return failures;
    }

    /**
     * Runs {@code action} when no DNS listener is left serving: the serve command then exits
     * non-zero, so systemd (Restart=on-failure) or the container runtime starts it again.
     */
    public void onNothingServing(Runnable action) {
        dns.health().onNothingServing(action);
    }

    public io.micrometer.core.instrument.MeterRegistry registry() {
        return registry;
    }

    public DnsServer dns() {
        return dns;
    }

    public AdminServer admin() {
        return admin;
    }

    public LiveTopology topology() {
        return topology;
    }

    public ProximityTable proximity() {
        return proximity;
    }

    public PeerSync sync() {
        return sync;
    }

    public ProbeScheduler scheduler() {
        return scheduler;
    }

    /** A counter's value (0 when it was never registered): for tests and figures. */
    public double metric(String name, String tag, String value) {
        var c = registry.find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    @Override
    public void close() {
        admin.close();
        dns.close();
        responder.close();
        health.close();
        links.close();
        sync.close();
        if (alertSources != null) {
            alertSources.close();
        }
        alerts.close();
        scheduler.close();
        housekeeping.shutdownNow();
        icmp.close();
        try {
            store.close(); // the last flush: a clean stop loses nothing
        } catch (SQLException e) {
            log.warn("proximity store: last flush failed: {}", e.toString());
        }
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                log.debug("closing the topology watcher: {}", e.toString());
            }
        }
    }
}
