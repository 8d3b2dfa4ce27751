package dev.gslb.server;

import dev.gslb.api.Reloaded;
import dev.gslb.config.GslbConfig;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.transfer.CatalogZones;
import dev.gslb.dns.transfer.SecondaryZones;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.dns.tsig.TsigKeys;
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
    /** The secondary zones: started and stopped with each configuration, their copies put in place. */
    private final SecondaryZones secondaries;
    /** The catalog zones' records, made from the zones offered. */
    private final CatalogZones catalogs = new CatalogZones(java.time.Clock.systemUTC());

    /** The keys of the configuration applied last (a secondary zone's new copy is offered with them). */
    private volatile TsigKeys tsigKeys = TsigKeys.NONE;

    private volatile GslbServer.ConfigSource source;

    Reconfiguration(
            SyncGroup<GslbConfig> group,
            GslbServer.ConfigSource source,
            LiveTopology topology,
            MethodRegistry methods,
            Responder responder,
            Consumer<Authority> signedZones,
            Transfers transfers,
            SecondaryZones secondaries,
            ProbeSide probes,
            SitePublisher site) {
        this.transfers = transfers;
        this.secondaries = secondaries;
        this.group = group;
        this.source = source;
        this.topology = topology;
        this.methods = methods;
        this.responder = responder;
        this.signedZones = signedZones;
        this.probes = probes;
        this.site = site;
    }

    /**
     * At start: the secondary zones begin (their kept copies read now) and every zone is offered,
     * its secondaries notified, with {@code keys}.
     */
    synchronized void start(TsigKeys keys) {
        tsigKeys = keys;
        secondaries.configure(responder.authority(), keys);
        zoneChanged();
    }

    /** A secondary zone has a new copy, or expired: served, offered and notified from now on. */
    synchronized void zoneChanged() {
        Authority a = catalogs.fill(secondaries.fill(responder.authority()));
        responder.replace(a);
        transfers.update(a, tsigKeys);
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
        secondaries.configure(a, next.tsigKeys());
        a = catalogs.fill(secondaries.fill(a));
        tsigKeys = next.tsigKeys();
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
