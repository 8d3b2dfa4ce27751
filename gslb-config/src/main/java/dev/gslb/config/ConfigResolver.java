package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.Zones;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.ProgramAllowList;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsFile;
import dev.gslb.site.DataCenter;
import dev.gslb.sync.SyncSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Resolves what the sections of one file say of each other, section by section in the order they
 * name each other (data centers, monitors, links, servers, pools, zones and wide IPs, topology),
 * and builds the {@link GslbConfig}; each error points at the name that is wrong.
 */
final class ConfigResolver extends Sections {
    private final LinkBinder linkBinder = new LinkBinder(this);
    private final ServerBinder servers = new ServerBinder(this);

    ConfigResolver(SettingsFile<ConfigFile> file, Path base) {
        super(file, base);
    }

    GslbConfig resolve(GslbConfig.ConfigText source) throws SettingsException {
        for (int i = 0; i < c.datacenters().size(); i++) {
            String name = c.datacenters().get(i);
            if (name == null || dataCenters.put(name, new DataCenter(name)) != null) {
                throw file.error("data center " + name + " is defined twice or empty", "datacenters", i);
            }
        }
        ZoneBinder zoneBinder = new ZoneBinder(this);
        List<Zone> zones = zoneBinder.zones();
        var programs = new ProgramAllowList(requireNonNullElse(c.monitorPrograms(), base.resolve("monitor-programs")));
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
            linkBinder.link(c.links().get(i), i);
        }
        for (int i = 0; i < c.virtualServers().size(); i++) {
            servers.virtualServer(c.virtualServers().get(i), i);
        }
        for (int i = 0; i < c.pools().size(); i++) {
            servers.pool(c.pools().get(i), i);
        }
        List<WideIpSpec> wideIps = zoneBinder.wideIps(new Zones(zones));
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
                new TopologyBinder(this).topology(),
                probing,
                List.copyOf(healthTargets),
                List.copyOf(links.values()),
                sync,
                c.alerts(),
                requireNonNullElse(c.statistics(), StatisticsSettings.DEFAULTS),
                source,
                c.config() == null || c.config().sync() == null || c.config().sync());
        try { // a trial build; each rule was checked where it is written
            config.authority(ConfigLoader.UNBOUND_METHODS);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage());
        }
        return config;
    }

    private InstanceIdentity instance() throws SettingsException {
        var i = c.instance();
        String name = i == null || i.name() == null ? ConfigLoader.defaultInstanceName() : i.name();
        String dc = i == null || i.datacenter() == null
                ? dataCenters.keySet().stream().findFirst().orElse("")
                : dataCenter(i.datacenter(), "instance", "datacenter").name();
        return new InstanceIdentity(name, dc);
    }
}
