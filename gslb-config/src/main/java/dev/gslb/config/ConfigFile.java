package dev.gslb.config;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.SettingsOverlay;
import dev.gslb.sync.SyncSettings;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * The configuration file as written (README "Configuration"): each settings section is bound to
 * the record of the module that owns it, with its defaults; the sections that name each other
 * (servers, pools, wide IPs, topology records) stay as written until {@link ConfigLoader} resolves
 * the names. An absent section is null here and gets its defaults there.
 */
record ConfigFile(
        Instance instance,
        DnsSettings dns,
        AdminSettings admin,
        List<ZoneEntry> zones,
        List<String> datacenters,
        List<LinkEntry> links,
        List<VirtualServerEntry> virtualServers,
        List<PoolEntry> pools,
        List<WideIpEntry> wideIps,
        TopologySection topology,
        Probing probe,
        List<MonitorSpec> monitors,
        Path monitorPrograms,
        GslbConfig.LoadBalancing loadBalancing,
        SyncSettings sync,
        List<AlertSpec> alerts,
        StatisticsSettings statistics,
        ConfigSection config) {
    ConfigFile {
        zones = orEmpty(zones);
        datacenters = orEmpty(datacenters);
        links = orEmpty(links);
        virtualServers = orEmpty(virtualServers);
        pools = orEmpty(pools);
        wideIps = orEmpty(wideIps);
        monitors = orEmpty(monitors);
        alerts = orEmpty(alerts);
    }

    /** {@code key:} with nothing after it is an empty list. */
    static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    record Instance(String name, String datacenter) {}

    /** {@code config: {sync: false}}: this instance neither takes nor gives shared configuration. */
    record ConfigSection(Boolean sync) {}

    record ZoneEntry(Path file, Name origin) {}

    record VirtualServerEntry(
            String name,
            InetAddress address,
            String datacenter,
            String link,
            List<String> monitors,
            Integer ratio,
            Integer order) {}

    /** Bandwidths stay text here: a percentage needs the link's capacity to mean anything. */
    record LinkEntry(
            String name,
            String datacenter,
            String capacity,
            String limitIn,
            String limitOut,
            String resume,
            TrafficSpec traffic,
            List<InetAddress> gateways,
            List<String> monitors) {}

    record PoolEntry(
            String name,
            List<String> members,
            String preferred,
            String alternate,
            String fallback,
            Integer maxAnswers,
            Duration ttl,
            List<InetAddress> fallbackIp,
            SettingsOverlay<QualityOfService.Settings> qos) {}

    record WideIpEntry(
            Name name,
            List<String> pools,
            Duration ttl,
            WideIp.PoolMethod poolMethod,
            Failure failure,
            Boolean decisionLog,
            Duration persistenceTtl) {}

    record TopologySection(List<Path> data, List<TopologyRecordEntry> records, Boolean watch) {}

    record TopologyRecordEntry(String region, Cidr cidr, String datacenter, Integer score) {}
}
