package dev.gslb.config;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.dnstap.DnstapSettings;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.Zones;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.ProgramAllowList;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.Section;
import dev.gslb.settings.SectionValues;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsFile;
import dev.gslb.site.DataCenter;
import dev.gslb.sync.SyncSettings;
import java.util.List;

/**
 * Resolves what the sections of one file say of each other, section by section in the order they
 * name each other (data centers, monitors, links, servers, pools, zones and wide IPs, topology),
 * and builds the {@link GslbConfig}; each error points at the name that is wrong.
 */
final class ConfigResolver extends Sections {
    /** {@code instance:} as written: who this instance is and where; absent, the host name and the first data center. */
    record InstanceEntry(String name, String datacenter) {
        static final Section<InstanceEntry> SECTION =
                Section.of("instance", InstanceEntry.class, folder -> new InstanceEntry(null, null));
    }

    /** {@code config: {sync: false}}: this instance neither takes nor gives shared configuration. */
    record ConfigSyncEntry(Boolean sync) {
        static final Section<ConfigSyncEntry> SECTION =
                Section.of("config", ConfigSyncEntry.class, folder -> new ConfigSyncEntry(null));
    }

    static final Section<List<String>> DATACENTERS = Section.list("datacenters", String.class);

    ConfigResolver(SettingsFile<SectionValues> file) {
        super(file);
    }

    GslbConfig resolve(GslbConfig.ConfigText source) throws SettingsException {
        List<String> given = section(DATACENTERS);
        for (int i = 0; i < given.size(); i++) {
            String name = given.get(i);
            if (name == null || dataCenters.put(name, new DataCenter(name)) != null) {
                throw file.error("data center " + name + " is defined twice or empty", "datacenters", i);
            }
        }
        ZoneBinder zoneBinder = new ZoneBinder(this);
        TsigKeys tsigKeys = zoneBinder.tsigKeys();
        List<Zone> zones = zoneBinder.zones(tsigKeys);
        var programs = new ProgramAllowList(section(ProgramAllowList.SECTION));
        List<MonitorSpec> monitorSpecs = section(MonitorSpec.SECTION);
        for (int i = 0; i < monitorSpecs.size(); i++) {
            MonitorSpec m;
            try { // from this file or a peer's, an external monitor runs only a program of this host's folder
                m = programs.place(monitorSpecs.get(i));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "monitors", i, "command", 0);
            }
            if (monitors.put(m.name(), m) != null) {
                throw file.error("monitor " + m.name() + " is defined twice", "monitors", i);
            }
        }
        new LinkBinder(this).links();
        ServerBinder servers = new ServerBinder(this);
        servers.virtualServers();
        new PoolBinder(this).pools();
        List<WideIpSpec> wideIps = zoneBinder.wideIps(new Zones(zones));
        Probing probing = section(Probing.SECTION);
        SyncSettings sync = section(SyncSettings.SECTION);
        if (!file.has("sync", "path-ttl")) { // docs/configuration.md: paths go with the proximity table's TTL
            sync = sync.withPathTtl(probing.proximity().pathTtl());
        }
        DnsSettings dns = section(DnsSettings.SECTION);
        GslbConfig config = new GslbConfig(
                instance(),
                dns.listener(),
                dns.answers(),
                section(AdminSettings.SECTION),
                List.copyOf(dataCenters.values()),
                zones,
                tsigKeys,
                wideIps,
                section(GslbConfig.LoadBalancing.SECTION),
                new TopologyBinder(this).topology(),
                probing,
                List.copyOf(healthTargets),
                List.copyOf(links.values()),
                List.copyOf(loadTargets),
                sync,
                section(AlertSpec.SECTION),
                section(StatisticsSettings.SECTION),
                section(DnstapSettings.SECTION),
                source,
                !Boolean.FALSE.equals(section(ConfigSyncEntry.SECTION).sync()));
        try { // a trial build; each rule was checked where it is written
            config.authority(ConfigLoader.UNBOUND_METHODS);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage());
        }
        return config;
    }

    private InstanceIdentity instance() throws SettingsException {
        InstanceEntry i = section(InstanceEntry.SECTION);
        String name = i.name() == null ? ConfigLoader.defaultInstanceName() : i.name();
        String dc = i.datacenter() == null
                ? dataCenters.keySet().stream().findFirst().orElse("")
                : dataCenter(i.datacenter(), "instance", "datacenter").name();
        return new InstanceIdentity(name, dc);
    }
}
