package dev.gslb.cli.config;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.server.ListenerSettings;
import dev.gslb.dns.wideip.DataCenter;
import dev.gslb.topology.LiveTopology;
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
        Topology topology) {

    /** What the topology table is built from, and whether file changes reload it. */
    public record Topology(LiveTopology.Spec spec, boolean watch) {}
}
