package dev.gslb.server;

import dev.gslb.config.ConfigInService;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.dnstap.Dnstap;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.StaticPersistence;
import dev.gslb.dns.server.DnsServer;
import dev.gslb.dns.transfer.Notifier;
import dev.gslb.dns.transfer.SecondaryZones;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.dns.wideip.AnswerStatistics;
import dev.gslb.dns.wideip.PersistenceTable;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.store.StateFile;
import dev.gslb.server.access.Tokens;
import dev.gslb.server.admin.AdminServer;
import dev.gslb.server.admin.AuditApi;
import dev.gslb.server.admin.ConfigApi;
import dev.gslb.server.admin.DnssecApi;
import dev.gslb.server.admin.LdnsApi;
import dev.gslb.server.admin.LinkApi;
import dev.gslb.server.admin.MaintenanceApi;
import dev.gslb.server.admin.PeerApi;
import dev.gslb.server.admin.PersistApi;
import dev.gslb.server.admin.ResolveApi;
import dev.gslb.server.admin.ResumeApi;
import dev.gslb.server.admin.ServiceApi;
import dev.gslb.server.admin.StatsApi;
import dev.gslb.server.admin.StatusPage;
import dev.gslb.server.admin.TokenApi;
import dev.gslb.server.admin.TopologyApi;
import dev.gslb.server.alert.Alerts;
import dev.gslb.server.alert.StateChanges;
import dev.gslb.server.audit.AuditLog;
import dev.gslb.server.dnssec.KeySharing;
import dev.gslb.server.dnssec.SigningWatch;
import dev.gslb.server.dnssec.ZoneKeyStore;
import dev.gslb.server.maintenance.Maintenance;
import dev.gslb.server.metrics.BuildInfo;
import dev.gslb.server.metrics.Exposition;
import dev.gslb.server.metrics.JvmMeters;
import dev.gslb.server.metrics.MetricPrefix;
import dev.gslb.settings.SettingsException;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SitePublisher;
import dev.gslb.sync.PeerSync;
import dev.gslb.sync.SyncGroup;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.LiveTopology;
import dev.gslb.topology.load.TopologyWatcher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance, wired from a {@link GslbConfig}: DNS listeners, topology table, LDNS
 * proximity table with its probers, scheduler and H2 store ({@link ProbeSide}), health monitors,
 * peer sync and the sync group, admin API. Reloads go through {@link Reconfiguration}.
 */
public final class GslbServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    private final GslbConfig config;
    private final Exposition exposition = new Exposition(BuildInfo.read());
    private final PrometheusMeterRegistry registry = exposition.registry();
    /** Made once the DNS listeners answer: its collector and MXBean set-up (~50 ms) need not delay the first answer. */
    private JvmMeters jvm;

    private final LiveTopology topology;
    private final ProbeSide probes;
    private volatile CompletableFuture<Void> proximityRead = new CompletableFuture<>();
    private final PeerSync sync;
    private final SyncGroup<GslbConfig> group;
    private final SitePublisher site;
    private final Maintenance maintenance;
    private final Alerts alerts;
    private StateChanges alertSources;
    private final MethodRegistry methods;
    private final WideIpResolver resolver;
    private final Responder responder;
    /** The signed zones' keys, published to the responder. */
    private final ZoneKeyStore dnssecKeys;

    private final KeySharing keySharing;
    /** Query logging (the dnstap: section), or null when it is off. */
    private final Dnstap dnstap;

    private final Reconfiguration reconfiguration;
    /** Zone transfers out and NOTIFY (zones: transfer:). */
    private final Transfers transfers;
    /** Zones taken by transfer from their primaries (zones: primary:). */
    private final SecondaryZones secondaries;

    private final DnsServer dns;
    private final AuditLog audit;
    private final AdminServer admin;
    private TopologyWatcher watcher;
    private final ServiceManagerNotifier serviceManager;
    private volatile ServiceStatus serviceStatus;

    public GslbServer(GslbConfig fromFile) throws IOException, TopologyException, SQLException {
        this(fromFile, ServiceManagerNotifier.NONE);
    }

    /** A server that tells {@code serviceManager} (systemd) when it is ready, reloading and stopping. */
    public GslbServer(GslbConfig fromFile, ServiceManagerNotifier serviceManager)
            throws IOException, TopologyException, SQLException {
        this.serviceManager = serviceManager;
        StateFile.stateFolder(fromFile.stateFolder()); // 700 before anything is written in it
        this.group = syncGroup(fromFile);
        GslbConfig config = group.running();
        this.config = config;
        this.topology = config.loadTopology();
        if (!group.loads().isEmpty()) { // what `gslb topology load` added, kept with the configuration
            topology.prepare(config.topology().spec(), group.loads()).commit();
        }
        this.probes = new ProbeSide(config, registry);
        this.site = sitePublisher(config, probes);
        this.maintenance = new Maintenance(
                fromFile.stateFolder(), config.instance().name(), site, group::running, Clock.systemUTC());
        this.sync = peerSync(config);
        GslbConfig.LoadBalancing lb = config.loadBalancing();
        this.alerts = new Alerts(config.alerts(), config.instance().name(), Clock.systemUTC(), registry);
        this.methods = new MethodRegistry(new MethodRegistry.Services(
                probes.proximity,
                topology::table,
                config.probing().proximity().pathTtl().toMillis(),
                lb.methods()));
        this.resolver = new WideIpResolver(
                site::state,
                probes.scheduler,
                registry,
                new AnswerStatistics(config.statistics().maxWideIps()),
                new PersistenceTable(lb.methods().orDefault(StaticPersistence.Settings.DEFAULTS)),
                topology::table);
        SharedPersistence.share(resolver.persistence(), sync);
        DnsMetrics metrics = new DnsMetrics(registry);
        this.dnstap = Dnstap.start(config.dnstap(), config.instance().name(), registry);
        this.responder = new Responder(
                config.authority(methods),
                resolver,
                config.instance(),
                metrics,
                config.answers(),
                System::nanoTime,
                dnstap);
        this.dnssecKeys =
                new ZoneKeyStore(fromFile.stateFolder().resolve("dnssec"), responder::keys, Clock.systemUTC());
        dnssecKeys.zones(responder.authority()); // before the listeners answer
        responder.tsigKeys(config.tsigKeys());
        this.transfers = new Transfers(new Notifier());
        this.secondaries = new SecondaryZones(
                fromFile.stateFolder().resolve("secondary"), Clock.systemUTC(), this::secondaryChanged);
        responder.notifies(secondaries);
        this.keySharing = new KeySharing(
                dnssecKeys,
                config.instance().name(),
                fromFile.stateFolder().resolve("dnssec-from-peers"),
                sync::publishKeys,
                Clock.systemUTC());
        dnssecKeys.onChange(keySharing::changed);
        sync.exchangeKeys(keySharing); // before peer sync starts
        this.reconfiguration = new Reconfiguration(
                group,
                () -> fromFile,
                topology,
                methods,
                responder,
                dnssecKeys::zones,
                transfers,
                secondaries,
                probes,
                site);
        reconfiguration.start(config.tsigKeys()); // secondary zones' copies served before the listeners start
        group.attach(reconfiguration, sync::publishConfig, sync::tellConfigState);
        this.dns = new DnsServer(config.dns(), responder, transfers, metrics);
        this.audit = new AuditLog(config.admin().audit());
        maintenance.attach(
                sync::publishRuntimeStates,
                this::peerChanged,
                (server, at) -> probes.health.resumeIfWaitingSince(server, java.time.Instant.ofEpochMilli(at)));
        Tokens tokens = Tokens.open(config.admin(), Clock.systemUTC());
        this.admin = new AdminServer(config.admin(), tokens, audit, adminRoutes(tokens), registry);
        probes.registerLdnsCounters(registry);
        LinkGauges.register(config.links(), site, registry);
        maintenance.registerGauges(registry);
        ServerGauges.register(site, exposition);
        SyncGauges.register(sync::status, this::configStatus, exposition);
    }

    /**
     * The one place that decides availability: it hears every monitor and link event (the peers'
     * come through peer sync) and starts from what the monitors know now.
     */
    private static SitePublisher sitePublisher(GslbConfig config, ProbeSide probes) {
        SitePublisher site =
                new SitePublisher(config.site(), config.loadBalancing().unknownIsAvailable(), Clock.systemUTC());
        probes.health.onChange(site::localHealth);
        probes.health.onWaitingChange(site::waitingForResume);
        probes.links.onChange(site::localLink);
        probes.loads.onChange(site::localLoad);
        probes.health.waitingForResume().forEach(server -> site.waitingForResume(server, true)); // kept from before
        site.resite(config.site(), probes.health::state, probes.links::local);
        return site;
    }

    private static SyncGroup<GslbConfig> syncGroup(GslbConfig fromFile) throws IOException {
        try {
            return new SyncGroup<>(
                    new SyncedConfiguration(), fromFile, fromFile.stateFolder().resolve("config"), Clock.systemUTC());
        } catch (SettingsException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Peer sync over the probe side's tables, with the sync group's configuration exchange. */
    private PeerSync peerSync(GslbConfig config) throws IOException {
        PeerSync peers = new PeerSync(
                config.sync(),
                config.instance().name(),
                config.instance().dataCenter(),
                probes.proximity,
                probes.health,
                probes.links,
                probes.scheduler,
                site,
                () -> dataCenterNames(group.running()), // a reload may change them
                Clock.systemUTC(),
                registry);
        peers.prepareIdentity(); // beside the rest of the start: sync.start() takes it
        peers.shareLoads(probes.loads);
        peers.exchangeConfig(group);
        peers.exchangeRuntimeStates(maintenance);
        return peers;
    }

    private static Set<String> dataCenterNames(GslbConfig config) {
        return config.dataCenters().stream().map(DataCenter::name).collect(Collectors.toSet());
    }

    /** Every route of the admin API, each in the API class of its concept. */
    private List<AdminServer.Route> adminRoutes(Tokens tokens) {
        List<AdminServer.Route> routes = new ArrayList<>();
        routes.addAll(new ServiceApi(
                        config.instance().name(),
                        config.instance().dataCenter(),
                        this::authority,
                        this::failures,
                        exposition::text)
                .routes());
        Iterable<dev.gslb.topology.Address> ldns = () -> java.util.stream.StreamSupport.stream(
                        probes.proximity.entries().spliterator(), false)
                .map(Map.Entry::getKey)
                .iterator();
        routes.addAll(new TopologyApi(topology, config.instance().name(), ldns, group::topologyLoaded).routes());
        LdnsApi ldnsApi = new LdnsApi(probes.proximity, probes.scheduler, dataCenterNames(config));
        routes.addAll(ldnsApi.routes());
        ResolveApi resolveApi = new ResolveApi(this::authority, resolver);
        routes.addAll(resolveApi.routes());
        routes.addAll(new ConfigApi(this::reload, this::configStatus, group::diff, this::configShown).routes());
        routes.addAll(new PeerApi(sync).routes());
        routes.addAll(new MaintenanceApi(maintenance, group::running, resolver::statistics).routes());
        routes.addAll(new ResumeApi(probes.health, maintenance).routes());
        routes.addAll(new TokenApi(tokens).routes());
        routes.addAll(new DnssecApi(dnssecKeys).routes());
        routes.addAll(new AuditApi(audit, Clock.systemUTC()).routes());
        routes.addAll(new PersistApi(resolver.persistence(), this::authority, Clock.systemUTC()).routes());
        StatsApi statsApi = new StatsApi(resolver::statistics, topology, probes.health, this::authority, site::state);
        routes.addAll(statsApi.routes());
        LinkApi linkApi = new LinkApi(probes.links, site::state, this::authority);
        routes.addAll(linkApi.routes());
        routes.addAll(new StatusPage(new StatusPage.Sources(
                        config.instance().name(),
                        config.instance().dataCenter(),
                        config.dataCenters().stream().map(DataCenter::name).toList(),
                        this::authority,
                        linkApi::statuses,
                        statsApi::servers,
                        sync,
                        this::configStatus,
                        probes.proximity,
                        ldnsApi,
                        resolveApi,
                        resolver::statistics,
                        topology))
                .routes());
        return routes;
    }

    private dev.gslb.api.ConfigStatus configStatus() {
        return group.status(sync.status())
                .withRuntime(maintenance.generations())
                .withKeys(keySharing.status());
    }

    /** The configuration in service, as `gslb config show` prints it. */
    private dev.gslb.api.ConfigShown configShown() throws SettingsException {
        SyncGroup.Served<GslbConfig> served = group.served();
        var v = served.version();
        return new dev.gslb.api.ConfigShown(
                served.running().instance().name(),
                v.generation(),
                v.origin(),
                v.digest(),
                served.content().loads().size(),
                ConfigInService.of(served.running(), SyncedConfiguration.text(served)));
    }

    /** A secondary zone has a new copy or expired (from that zone's own thread). */
    private void secondaryChanged(dev.gslb.dns.zone.Zone zone) {
        reconfiguration.zoneChanged();
    }

    /** The zones taken from primaries (zones: primary:). */
    public SecondaryZones secondaryZones() {
        return secondaries;
    }

    public Authority authority() {
        return responder.authority();
    }

    /**
     * Re-reads the configuration file: a change of its shared part is a change made here (the
     * next generation, applied and sent to the peers, docs/operator-guide.md "One configuration for
     * the pair (sync group)"); a configuration that does not load changes nothing. Listeners,
     * probing and links keep their start-up settings (a restart applies those).
     */
    public dev.gslb.api.Reloaded reload() throws SettingsException {
        ServiceStatus status = serviceStatus;
        if (status == null) { // not started: READY=1 comes from start, once the listeners are bound
            return reconfiguration.reload();
        }
        serviceManager.reloading();
        String refused = null;
        try {
            return reconfiguration.reload();
        } catch (SettingsException | RuntimeException e) {
            refused = String.valueOf(e.getMessage());
            throw e;
        } finally {
            status.reloaded(refused);
            serviceManager.ready(status.line());
        }
    }

    public SyncGroup<GslbConfig> syncGroup() {
        return group;
    }

    /** Where a reload reads the configuration from (the --config file, or the embedded default). */
    @FunctionalInterface
    public interface ConfigSource {
        GslbConfig get() throws SettingsException;
    }

    public void reloadFrom(ConfigSource source) {
        reconfiguration.from(source);
    }

    public void start() throws InterruptedException, IOException {
        DescriptorBudget descriptors = DescriptorBudget.of(config);
        if (!descriptors.fits()) {
            log.warn(descriptors.warning());
        }
        var t = topology.table();
        // the shipped lists overlap in dozens of places, harmlessly: one line says how many and
        // where to read them, so a real warning is not lost among them
        log.info(
                "topology: {} regions, {} prefixes, {} records{}",
                t.regions().size(),
                t.prefixCount(),
                t.records().size(),
                t.warnings().isEmpty()
                        ? ""
                        : "; " + t.warnings().size() + " duplicate or overlapping prefixes, the longest match"
                                + " decides (gslb topology list --json lists them)");
        if (config.topology().watch() && !config.topology().spec().data().isEmpty()) {
            watcher = new TopologyWatcher(topology);
        }
        probes.startHousekeeping(config);
        Map<String, String> serverDc = new HashMap<>();
        config.health().forEach(target -> serverDc.put(target.name(), target.dataCenter()));
        alertSources = new StateChanges(
                alerts,
                probes.health,
                serverDc::get,
                probes.links,
                config.instance().dataCenter(),
                sync,
                group::drift,
                new SigningWatch(dnssecKeys, registry, sync::status)::problems,
                Duration.ofSeconds(1));
        probes.health.start();
        probes.links.start();
        probes.loads.start();
        // What start-up built (the topology, zones) is still in the young generation: the first
        // young collection under queries would copy it all, a pause of 25-35 ms on two cores.
        // Collected once here, before any query, it is old already.
        System.gc();
        dns.start();
        // After the DNS listeners: on a first start the identity it waits for (a key pair and its
        // certificate, made on a thread of its own) is 0.1-0.15 s of cold code, and the first
        // answers need nothing of sync (peer paths come seconds later in any case).
        sync.start();
        proximityRead = probes.loadStore(sync::resendSnapshots); // the peers connected before it was read
        jvm = new JvmMeters(registry);
        admin.start();
        ServiceStatus status = new ServiceStatus(serviceManager, responder::authority, sync::status, this::failures);
        serviceManager.ready(status.line()); // every listener (DNS, sync, admin) is bound
        status.start();
        serviceStatus = status;
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

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Completes when the stored proximity table has been read (start reads it after the DNS
     * listener is up): its log line is then written.
     */
    public CompletableFuture<Void> proximityRead() {
        return proximityRead;
    }

    public DnsServer dns() {
        return dns;
    }

    public AdminServer admin() {
        return admin;
    }

    /** Who changed what here: the admin API writes to it, and so may any other part (a peer's change). */
    /** A runtime-state change a peer sent: audited with the peer's instance name (those made here are audited as calls). */
    private void peerChanged(String by, boolean fromPeer, List<Maintenance.Change> changes) {
        if (fromPeer) {
            for (Maintenance.Change c : changes) {
                audit.record(dev.gslb.api.AuditEntry.of(
                        java.time.Instant.now(),
                        by,
                        "peer sync",
                        "runtime state",
                        c.target().toString(),
                        c.before(),
                        c.after()));
            }
        }
    }

    public AuditLog audit() {
        return audit;
    }

    public LiveTopology topology() {
        return topology;
    }

    public ProximityTable proximity() {
        return probes.proximity;
    }

    public PeerSync sync() {
        return sync;
    }

    public ZoneKeyStore dnssecKeys() {
        return dnssecKeys;
    }

    public ProbeScheduler scheduler() {
        return probes.scheduler;
    }

    /** A counter's value by the name the code registers it under (0 when it never was): for tests and figures. */
    public double metric(String name, String tag, String value) {
        var c = registry.find(MetricPrefix.of(name)).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    @Override
    public void close() {
        serviceManager.stopping();
        if (serviceStatus != null) {
            serviceStatus.close();
        }
        admin.close();
        audit.close();
        dns.close();
        secondaries.close();
        transfers.close();
        if (dnstap != null) { // after the listeners: what they queued is written, then the stream ends
            dnstap.close();
        }
        dnssecKeys.close();
        responder.close();
        probes.health.close();
        probes.links.close();
        probes.loads.close();
        sync.close();
        site.close();
        if (alertSources != null) {
            alertSources.close();
        }
        alerts.close();
        probes.close();
        if (jvm != null) {
            jvm.close();
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
