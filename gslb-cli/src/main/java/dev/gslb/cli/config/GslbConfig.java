package dev.gslb.cli.config;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.server.ListenerSettings;
import dev.gslb.dns.wideip.DataCenter;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.topology.LiveTopology;
import java.nio.file.Path;
import java.time.Duration;
import java.net.InetSocketAddress;
import java.util.List;

/** A whole deployment, validated: what {@code gslb serve} runs. */
public record GslbConfig(
        InstanceIdentity instance,
        ListenerSettings dns,
        int ednsUdpSize,
        InetSocketAddress admin,
        List<DataCenter> dataCenters,
        Authority authority,
        Topology topology,
        Probing probing,
        List<HealthTarget> health) {

    /** The same deployment on other listen addresses (command-line overrides, tests). */
    public GslbConfig withListeners(ListenerSettings dns, InetSocketAddress admin) {
        return new GslbConfig(instance, dns, ednsUdpSize, admin, dataCenters, authority, topology, probing, health);
    }

    /** The same deployment with its proximity table kept in another file. */
    public GslbConfig withStore(Path store) {
        return new GslbConfig(instance, dns, ednsUdpSize, admin, dataCenters, authority, topology,
                new Probing(probing.probes(), probing.proximity(), store, probing.flushInterval()), health);
    }

    /** Probing of LDNS, the proximity table's TTLs, and its H2 file. */
    public record Probing(ProbeSettings probes, ProximitySettings proximity, Path store, Duration flushInterval) {}

    /** What the topology table is built from, and whether file changes reload it. */
    public record Topology(LiveTopology.Spec spec, boolean watch) {}
}
