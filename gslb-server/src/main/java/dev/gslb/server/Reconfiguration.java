package dev.gslb.server;

import dev.gslb.api.Reloaded;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.settings.SettingsException;
import dev.gslb.site.SitePublisher;
import dev.gslb.sync.SyncGroup;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.LiveTopology;
import dev.gslb.topology.load.RuntimeLoad;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configuration taken into service while running: a reload of the file (`gslb config reload`)
 * and a generation from the sync group (a peer's, or this one's) are applied here.
 */
final class Reconfiguration implements SyncGroup.Applier<GslbConfig> {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    private final SyncGroup<GslbConfig> group;
    private final LiveTopology topology;
    private final MethodRegistry methods;
    private final Responder responder;
    /** Takes the signed zones of each configuration applied: their keys are made, read or dropped. */
    private final Consumer<Authority> signedZones;

    private final ProbeSide probes;
    private final SitePublisher site;
    /** Zone transfers out: each zone's journal, and NOTIFY to its secondaries when its serial moves. */
    private final Transfers transfers;

    private volatile GslbServer.ConfigSource source;

    Reconfiguration(
            SyncGroup<GslbConfig> group,
            GslbServer.ConfigSource source,
            LiveTopology topology,
            MethodRegistry methods,
            Responder responder,
            Consumer<Authority> signedZones,
            Transfers transfers,
            ProbeSide probes,
            SitePublisher site) {
        this.transfers = transfers;
        this.group = group;
        this.source = source;
        this.topology = topology;
        this.methods = methods;
        this.responder = responder;
        this.signedZones = signedZones;
        this.probes = probes;
        this.site = site;
    }

    void from(GslbServer.ConfigSource source) {
        this.source = source;
    }

    /**
     * Re-reads the configuration file: a change of its shared part is a change made here (the
     * next generation, applied and sent to the peers, docs/operator-guide.md "One configuration for
     * the pair (sync group)"); a configuration that does not load changes nothing. Listeners,
     * probing and links keep their start-up settings (a restart applies those).
     */
    Reloaded reload() throws SettingsException {
        dev.gslb.sync.ConfigVersion v = group.reloaded(source.get());
        Authority a = responder.authority();
        return new Reloaded(a.zones().all().size(), a.wideIps().size(), v.generation(), v.origin(), v.digest());
    }

    /**
     * Swaps in a configuration's zones, wide IPs, pools, methods and topology at once, and
     * applies the virtual servers' monitors and load polling (unchanged servers keep their state
     * and window): everything is
     * built first, so a configuration that does not load changes nothing.
     */
    @Override
    public synchronized void apply(GslbConfig next, List<RuntimeLoad> loads) throws SettingsException {
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
        int monitors = probes.health.reconfigure(next.health());
        site.resite(next.site(), probes.health::state, probes.links::local); // before the wide IPs naming its servers
        int polled = probes.loads.reconfigure(next.loads()); // after: a server no longer polled is told unknown
        responder.replace(a);
        responder.tsigKeys(next.tsigKeys());
        signedZones.accept(a);
        transfers.update(a, next.tsigKeys());
        log.info(
                "configuration applied: {} zone(s), {} wide IP(s), monitors of {} server(s) changed, load polling of {}",
                a.zones().all().size(),
                a.wideIps().size(),
                monitors,
                polled);
    }
}
