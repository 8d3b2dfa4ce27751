package dev.gslb.config;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.dnstap.DnstapSettings;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.server.ListenerSettings;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.Section;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.site.DataCenter;
import dev.gslb.site.Site;
import dev.gslb.sync.SyncSettings;
import dev.gslb.topology.load.LiveTopology;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/** A whole deployment, validated: what {@code gslb serve} runs. */
public record GslbConfig(
        InstanceIdentity instance,
        ListenerSettings dns,
        AnswerSettings answers,
        AdminSettings admin,
        List<DataCenter> dataCenters,
        List<Zone> zones,
        TsigKeys tsigKeys,
        List<WideIpSpec> wideIps,
        LoadBalancing loadBalancing,
        Topology topology,
        Probing probing,
        List<HealthTarget> health,
        List<LinkSpec> links,
        List<LoadTarget> loads,
        SyncSettings sync,
        List<AlertSpec> alerts,
        StatisticsSettings statistics,
        DnstapSettings dnstap,
        ConfigText source,
        boolean configSync) {

    /** Where a configuration was read from: what config sync shares a part of. */
    public record ConfigText(String label, String text, Path base) {}

    /**
     * Load balancing shared by all pools (docs/operator-guide.md "Choose how answers are picked"):
     * {@code unknown-health} and the keys of every method's table, which the registry lists, so a
     * new method's settings need no line here.
     *
     * @param methods            each method's own settings record
     * @param unknownIsAvailable a virtual server no check has judged yet may be answered
     */
    public record LoadBalancing(MethodSettings methods, boolean unknownIsAvailable) {
        public static final Setting<Boolean> UNKNOWN_HEALTH = Setting.of(
                        "unknown-health",
                        String.class,
                        "available",
                        "a server no check has judged yet (or without monitors) is answered, or not")
                .check("available or unavailable", health -> {
                    if (!health.equals("available") && !health.equals("unavailable")) {
                        throw new IllegalArgumentException("unknown-health must be available or unavailable");
                    }
                })
                .map("available"::equals, true);

        public static final SettingsTable<LoadBalancing> SETTINGS = table();

        public static final LoadBalancing DEFAULTS = SETTINGS.defaults();

        private static SettingsTable<LoadBalancing> table() {
            var methods = MethodRegistry.settingsTables();
            var table = SettingsTable.of(
                            LoadBalancing.class,
                            v -> new LoadBalancing(
                                    MethodSettings.of(
                                            methods.stream().<Record>map(v::get).toList()),
                                    v.get(UNKNOWN_HEALTH)))
                    .add(UNKNOWN_HEALTH, LoadBalancing::unknownIsAvailable);
            methods.forEach(method -> includeMethod(table, method));
            return table;
        }

        private static <S extends Record> void includeMethod(
                SettingsTable<LoadBalancing> table, SettingsTable<S> method) {
            S defaults = method.defaults();
            table.include(method, lb -> lb.methods().orDefault(defaults));
        }

        public static final Section<LoadBalancing> SECTION = Section.of("load-balancing", SETTINGS);
    }

    /** The site model: the virtual servers in ordinal order and the links. */
    public Site site() {
        return new Site(
                health.stream().map(HealthTarget::server).toList(),
                links.stream().map(LinkSpec::link).toList());
    }

    /**
     * This instance's state folder: where its peers file is, so that {@code serve --state-dir}
     * moves all of it (the sync group's configurations, the servers waiting for resume).
     */
    public Path stateFolder() {
        return sync.peersFile().toAbsolutePath().getParent();
    }

    /** The zones and wide IPs with their methods bound to the running server's tables. */
    public Authority authority(MethodRegistry registry) {
        return new Authority(zones, wideIps.stream().map(w -> w.build(registry)).toList());
    }

    /**
     * Builds the topology table from the configured lists and records: what {@code serve} does at
     * start and {@code config check} does too, so that both refuse the same configurations.
     */
    public LiveTopology loadTopology() throws dev.gslb.topology.TopologyException {
        return new LiveTopology(topology.spec());
    }

    /** The same deployment on other listen addresses (command-line overrides, tests). */
    public GslbConfig withListeners(ListenerSettings dns, InetSocketAddress adminListen) {
        return with(dns, admin.withListen(adminListen), probing, sync);
    }

    /** The same deployment with the admin API's limits otherwise (tests). */
    public GslbConfig withAdminLimits(dev.gslb.config.admin.AdminLimits limits) {
        return with(dns, admin.withLimits(limits), probing, sync);
    }

    /** The same deployment with peer sync listening elsewhere and its peers in another file (tests). */
    public GslbConfig withSync(SyncSettings sync) {
        return with(dns, admin, probing, sync);
    }

    /** The same deployment with its proximity table in another H2 file; nothing else moves. */
    public GslbConfig withStore(Path store) {
        return withProbing(probing.withStore(store));
    }

    /**
     * The same deployment with all its state in {@code dir}: the proximity table ({@code proximity}),
     * the peers file ({@code peers}) with the sync identity beside it, the admin token unless
     * the config turned it off, the named tokens beside it and the audit log.
     */
    public GslbConfig withStateDir(Path dir) {
        return with(
                dns,
                admin.inStateDir(dir),
                probing.withStore(dir.resolve("proximity")),
                sync.withPeersFile(dir.resolve("peers")));
    }

    /** The same deployment probing otherwise (tests that probe loopback LDNS). */
    public GslbConfig withProbing(Probing probing) {
        return with(dns, admin, probing, sync);
    }

    /** The one copy the overrides above make: only what runs where changes, never the deployment. */
    private GslbConfig with(ListenerSettings dns, AdminSettings admin, Probing probing, SyncSettings sync) {
        return new GslbConfig(
                instance,
                dns,
                answers,
                admin,
                dataCenters,
                zones,
                tsigKeys,
                wideIps,
                loadBalancing,
                topology,
                probing,
                health,
                links,
                loads,
                sync,
                alerts,
                statistics,
                dnstap,
                source,
                configSync);
    }

    /**
     * This instance's local part (who and where it is, listeners, admin, probing, sync, alerts,
     * statistics, dnstap, overrides included) with the shared part of {@code shared}: what a configuration
     * taken from a peer runs as here.
     */
    public GslbConfig withShared(GslbConfig shared) {
        return new GslbConfig(
                instance,
                dns,
                answers,
                admin,
                shared.dataCenters,
                shared.zones,
                shared.tsigKeys,
                shared.wideIps,
                shared.loadBalancing,
                shared.topology,
                probing,
                shared.health,
                shared.links,
                shared.loads,
                sync,
                alerts,
                statistics,
                dnstap,
                source,
                configSync);
    }

    /** What the topology table is built from, and whether file changes reload it. */
    public record Topology(LiveTopology.Spec spec, boolean watch) {}
}
