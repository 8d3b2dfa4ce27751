package dev.gslb.config;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.dns.dnstap.DnstapSettings;
import dev.gslb.dns.server.DnsSettings;
import dev.gslb.dns.wideip.StatisticsSettings;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.ProgramAllowList;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.settings.Section;
import dev.gslb.sync.SyncSettings;
import java.util.List;

/**
 * Every top-level section of the configuration file (docs/configuration.md "Every key and its
 * default"), each declared by the module that owns it, and whether a sync group shares it: the
 * loader knows the file by these names. A new section is its declaration and one line here. The
 * shared sections go to peers in this order (the shared YAML, and so its digest, follows it).
 */
public final class ConfigSections {
    /**
     * Whether a sync group shares a section (docs/operator-guide.md "One configuration for the pair
     * (sync group)") or each instance keeps its own.
     */
    enum Scope {
        SHARED,
        LOCAL
    }

    record Entry(Section<?> section, Scope scope) {}

    static final List<Entry> ALL = List.of(
            local(ConfigResolver.InstanceEntry.SECTION),
            local(DnsSettings.SECTION),
            local(AdminSettings.SECTION),
            shared(ZoneBinder.ZoneEntry.SECTION),
            shared(ConfigResolver.DATACENTERS),
            shared(LinkBinder.LinkEntry.SECTION),
            shared(ServerBinder.VirtualServerEntry.SECTION),
            shared(PoolBinder.PoolEntry.SECTION),
            shared(ZoneBinder.WideIpEntry.SECTION),
            shared(TopologyBinder.TopologyEntry.SECTION),
            local(Probing.SECTION),
            shared(MonitorSpec.SECTION),
            local(ProgramAllowList.SECTION),
            shared(GslbConfig.LoadBalancing.SECTION),
            shared(TsigKeySpec.SECTION), // last: the shared YAML of a configuration without it is as before
            local(SyncSettings.SECTION),
            local(AlertSpec.SECTION),
            local(StatisticsSettings.SECTION),
            local(DnstapSettings.SECTION),
            local(ConfigResolver.ConfigSyncEntry.SECTION));

    private ConfigSections() {}

    private static Entry shared(Section<?> section) {
        return new Entry(section, Scope.SHARED);
    }

    private static Entry local(Section<?> section) {
        return new Entry(section, Scope.LOCAL);
    }

    static List<Section<?>> sections() {
        return ALL.stream().<Section<?>>map(Entry::section).toList();
    }

    /** Every section's key, in the order above (the manual's reference lists each). */
    public static List<String> keys() {
        return ALL.stream().map(e -> e.section().key()).toList();
    }

    /** The keys of the sections of {@code scope}, in the order above. */
    static List<String> keys(Scope scope) {
        return ALL.stream()
                .filter(e -> e.scope() == scope)
                .map(e -> e.section().key())
                .toList();
    }
}
