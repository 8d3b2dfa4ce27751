package dev.gslb.server;

import dev.gslb.config.GslbConfig;
import dev.gslb.dns.method.LowestRoundTripTime;
import dev.gslb.probe.Prober;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.health.ManualResume;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.load.LoadMonitor;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.probers.IcmpProber;
import dev.gslb.probe.probers.TcpProber;
import dev.gslb.probe.probers.UdpProber;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.probe.schedule.Probing;
import dev.gslb.probe.store.ProximityStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this instance measures, built from the configuration: the LDNS proximity table with its
 * probers, scheduler and H2 store, the virtual servers' health monitors, the ISP links and the
 * load of this data center's servers.
 */
final class ProbeSide implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GslbServer.class);

    /**
     * The servers waiting for the operator's resume, in the state folder (docs/operator-guide.md
     * "Bring a server back after a failure").
     */
    static final String WAITING_FILE = "waiting-for-resume";

    final ProximityTable proximity;
    final ProximityStore store;
    final IcmpProber icmp;
    final ProbeScheduler scheduler;
    final HealthMonitor health;
    final LinkMonitor links;
    final LoadMonitor loads;
    private final ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("housekeeping").factory());

    ProbeSide(GslbConfig config, MeterRegistry registry) throws SQLException {
        Probing probing = config.probing();
        this.proximity = new ProximityTable(probing.proximity(), Clock.systemUTC());
        proximity.rttMargin(config.loadBalancing()
                .methods()
                .orDefault(LowestRoundTripTime.Settings.DEFAULTS)
                .margin());
        this.store = ProximityStore.opened(probing.store(), proximity); // read by loadStore, once DNS answers
        ProbeSettings ps = probing.probes();
        this.icmp = new IcmpProber(ps.source());
        List<Prober> probers = List.of(
                DnsProber.dot(ps.source(), ps.dnsPort()),
                DnsProber.rev(ps.source(), ps.dnsPort()),
                new UdpProber(ps.source(), ps.udpPort()),
                new TcpProber(ps.source(), ps.dnsPort()),
                icmp);
        this.scheduler = new ProbeScheduler(
                proximity, ps, config.instance().dataCenter(), config.instance().name(), probers, registry);
        this.health = new HealthMonitor(
                config.health(),
                Clock.systemUTC(),
                registry,
                ManualResume.keptIn(config.stateFolder().resolve(WAITING_FILE)));
        this.links = new LinkMonitor(
                config.links(),
                config.instance().dataCenter(),
                config.instance().name(),
                Clock.systemUTC(),
                registry);
        this.loads = new LoadMonitor(config.loads(), config.instance().dataCenter(), Clock.systemUTC(), registry);
    }

    /** The proximity table's admissions, evictions, refusals and kept-data-center moves as counters. */
    void registerLdnsCounters(MeterRegistry registry) {
        for (var c : List.<Map.Entry<String, ToDoubleFunction<ProximityTable>>>of(
                Map.entry("admitted", ProximityTable::admitted),
                Map.entry("evicted", ProximityTable::evicted),
                Map.entry("refused", ProximityTable::refused))) {
            FunctionCounter.builder("ldns_entries", proximity, c.getValue())
                    .tag("outcome", c.getKey())
                    .description("New LDNS in the proximity table: admitted, evicted when full, refused")
                    .register(registry);
        }
        FunctionCounter.builder("ldns_kept_moves", proximity, ProximityTable::keptMoves)
                .description("LDNS whose kept data center a recorded path moved to another (their answers moved)")
                .register(registry);
    }

    /**
     * Reads the stored proximity table on a thread of its own, while the server already answers
     * (an LDNS not read yet is answered as a new one is): a million stored LDNS held the first
     * answer back by over 2 s. {@code whenRead} runs once LDNS were read (the peers' snapshots
     * again). The future completes when the reading is over, read or not.
     */
    CompletableFuture<Void> loadStore(Runnable whenRead) {
        CompletableFuture<Void> over = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("proximity-load").start(() -> {
            try {
                if (store.load() > 0) {
                    whenRead.run();
                }
            } catch (SQLException | RuntimeException e) {
                log.error(
                        "proximity store: reading it stopped ({}); the table keeps what was read, the rest is measured again",
                        e.toString());
                whenRead.run();
            } finally {
                over.complete(null);
            }
        });
        return over;
    }

    /** The store's flushing and the hourly expiry of inactive LDNS. */
    void startHousekeeping(GslbConfig config) {
        store.startFlushing(config.probing().flushInterval());
        housekeeping.scheduleWithFixedDelay(this::expireInactiveLdns, 1, 1, TimeUnit.HOURS);
    }

    private void expireInactiveLdns() {
        int removed = proximity.expireInactive();
        if (removed > 0) {
            log.info(
                    "removed {} LDNS inactive for {}",
                    removed,
                    proximity.settings().inactiveTtl());
        }
    }

    /** The scheduler, housekeeping, ICMP socket and the store (its last flush); the monitors close first. */
    @Override
    public void close() {
        scheduler.close();
        housekeeping.shutdownNow();
        icmp.close();
        try {
            store.close(); // the last flush: a clean stop loses nothing
        } catch (SQLException e) {
            log.warn("proximity store: last flush failed: {}", e.toString());
        }
    }
}
