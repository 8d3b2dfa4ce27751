package dev.gslb.probe.schedule;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.ProbeResult;
import dev.gslb.probe.ProbeRound;
import dev.gslb.probe.Prober;
import dev.gslb.probe.RttEstimator;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.NetworkRate;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.CidrSet;
import dev.gslb.topology.LocalAddresses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures LDNS from this data center. Requests are de-duplicated, skipped when a fresh
 * measurement exists or the LDNS is excluded, and queued (bounded); a fixed number of workers
 * run probe rounds, every probe packet paced by one global {@link RateLimiter}. Nothing a client
 * does can make this server send faster than the cap or probe one LDNS more than once per interval.
 *
 * <p>A round starts with the protocol that last answered this data center's probes of the LDNS;
 * a round without hops keeps the previous hops; the path's estimate is carried on from the
 * previous one of the same protocol ({@link RttEstimator}). The paths of LDNS in use are refreshed
 * every {@code refresh}, most recent and most frequent askers first, with at most half the rate
 * cap; a refresh of a known path starts with one probe ({@link ProbeRound.Expectation}).
 */
public final class ProbeScheduler implements ProbeRequests, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProbeScheduler.class);

    public enum Skip {
        EXCLUDED,
        FRESH,
        PENDING,
        QUEUE_FULL,
        NETWORK_RATE,
        TABLE_REFUSED
    }

    private final ProximityTable table;
    private final ProbeSettings settings;
    private final String dataCenter;
    private final String instance;
    private final Map<ProbeProtocol, Prober> probers;
    private final ProbeRound.Permits limiter;
    private final CidrSet excluded;
    private final NetworkRate perNetwork;
    private final Set<Address> pending = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<Address> queue;
    private final List<Thread> workers = new ArrayList<>();
    private final Map<Skip, Counter> skipped = new EnumMap<>(Skip.class);
    private final Counter probed;
    private final Counter unprobeable;
    private final Counter packetsSent;
    private final Counter packetsReplied;
    private final RttEstimator estimator;
    private volatile boolean running = true;
    private volatile double refreshAgeP50 = Double.NaN;
    private volatile double refreshAgeP99 = Double.NaN;

    public ProbeScheduler(
            ProximityTable table,
            ProbeSettings settings,
            String dataCenter,
            String instance,
            List<Prober> probers,
            MeterRegistry registry) {
        this(table, settings, dataCenter, instance, probers, registry, new RateLimiter(settings.ratePerSecond()));
    }

    /** With the global rate cap given: tests pass a {@link RateLimiter} on a virtual {@link RateLimiter.Ticker}. */
    public ProbeScheduler(
            ProximityTable table,
            ProbeSettings settings,
            String dataCenter,
            String instance,
            List<Prober> probers,
            MeterRegistry registry,
            ProbeRound.Permits rateCap) {
        this.table = table;
        this.settings = settings;
        this.dataCenter = dataCenter.intern(); // as the table's path names: found by identity per query
        this.instance = instance;
        this.probers = new EnumMap<>(ProbeProtocol.class);
        probers.forEach(p -> this.probers.put(p.protocol(), p));
        this.limiter = rateCap;
        this.excluded = exclusions(settings.exclusions());
        this.perNetwork = new NetworkRate(settings.perNetwork(), settings.perNetwork() * 10);
        this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
        for (Skip s : Skip.values()) {
            skipped.put(
                    s,
                    Counter.builder("probe_requests_skipped")
                            .tag("reason", s.name().toLowerCase(java.util.Locale.ROOT))
                            .description("Probe requests not acted on, by reason")
                            .register(registry));
        }
        String rounds = "LDNS probe rounds, by result: probed (a path measured) or unprobeable (no protocol answered)";
        probed = result(registry, "probe_rounds", "probed", rounds);
        unprobeable = result(registry, "probe_rounds", "unprobeable", rounds);
        String packets = "Probe packets this instance sent, and those that got a reply";
        packetsSent = result(registry, "probe_packets", "sent", packets);
        packetsReplied = result(registry, "probe_packets", "replied", packets);
        estimator = new RttEstimator(settings.rttSmoothing());
        for (int i = 0; i < settings.concurrency(); i++) {
            workers.add(Thread.ofVirtual().name("probe-", i).start(this::work));
        }
        io.micrometer.core.instrument.Gauge.builder("probe_refresh_age_seconds", () -> refreshAgeP50)
                .tag("quantile", "0.5")
                .description("Age of this data center's paths to the LDNS in use, at the last refresh scan")
                .register(registry);
        io.micrometer.core.instrument.Gauge.builder("probe_refresh_age_seconds", () -> refreshAgeP99)
                .tag("quantile", "0.99")
                .description("Age of this data center's paths to the LDNS in use, at the last refresh scan")
                .register(registry);
        if (!settings.refresh().isZero()) {
            workers.add(Thread.ofVirtual().name("probe-refresh").start(this::refreshLoop));
        }
    }

    /** A counter of {@code name} for one {@code result}. */
    private static Counter result(MeterRegistry registry, String name, String result, String description) {
        return Counter.builder(name)
                .tag("result", result)
                .description(description)
                .register(registry);
    }

    private static CidrSet exclusions(List<String> configured) {
        List<String> all = new ArrayList<>(ProbeSettings.ALWAYS_EXCLUDED);
        for (String c : configured) {
            if (c.equals(ProbeSettings.OWN_ADDRESSES)) {
                all.addAll(ownAddresses());
            } else {
                all.add(c);
            }
        }
        return CidrSet.parse(all, "probe exclusions");
    }

    /** This host's addresses: probing them would measure ourselves (or be steered to). */
    private static List<String> ownAddresses() {
        List<String> own = new ArrayList<>();
        try {
            for (InetAddress a : LocalAddresses.all()) {
                own.add(LocalAddresses.text(a) + (a instanceof Inet4Address ? "/32" : "/128"));
            }
        } catch (SocketException e) {
            log.warn("could not list this host's addresses to exclude them from probing: {}", e.toString());
        }
        return own;
    }

    public boolean isExcluded(InetAddress ldns) {
        return excluded.contains(ldns);
    }

    private final List<LdnsAsked> asked = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code listener} hears of every LDNS noted in use that may be asked about (see {@link #ldnsQueried}). */
    public void onAsked(LdnsAsked listener) {
        asked.add(listener);
    }

    /** {@link #ldnsQueried(long, long, long)} of an address in its object form (tests, tools). */
    public void ldnsQueried(InetAddress ldns, long now) {
        ldnsQueried(Cidr.hiOf(ldns), Cidr.loOf(ldns), now);
    }

    /**
     * Notes the LDNS and has it measured when nothing fresh is known. The listeners hear of it
     * unless nothing may be asked about this LDNS, of this side or of the peers: it is excluded,
     * the table refused it, or its network is over its rate of probe requests.
     */
    @Override
    public void ldnsQueried(long hi, long lo, long now) {
        if (excluded.contains(hi, lo)) {
            skipped.get(Skip.EXCLUDED).increment();
            return;
        }
        LdnsEntry e = table.touch(hi, lo, now);
        if (e == null) {
            skipped.get(Skip.TABLE_REFUSED).increment();
            return;
        }
        int own = e.pathIndex(dataCenter); // by index: this runs per query and builds no Path
        boolean retryLater = e.state() == LdnsEntry.State.UNPROBEABLE && now < e.retryAt();
        // Re-measure an active LDNS before its path goes stale while in use.
        if (!retryLater
                && (own < 0 || now - e.measuredAt(own) > table.settings().reprobeAfterMillis())) {
            if (!perNetwork.tryAcquire(hi, lo, now)) {
                skipped.get(Skip.NETWORK_RATE).increment();
                return;
            }
            Address key = new Address(hi, lo);
            request(key.inetAddress(), key);
        }
        for (int i = 0; i < asked.size(); i++) { // by index: no iterator per query
            asked.get(i).asked(hi, lo, e, now);
        }
    }

    /** Asks for a measurement; returns why it was not queued, or null when it was. Never blocks. */
    public Skip request(InetAddress ldns, Address key) {
        Skip why = skipReason(ldns, key);
        if (why == null && !pending.add(key)) {
            why = Skip.PENDING;
        } else if (why == null && (why = skipReason(ldns, key)) != null) {
            pending.remove(key); // measured between the first check and the add: a worker just finished it
        }
        if (why == null && !queue.offer(key)) {
            pending.remove(key);
            why = Skip.QUEUE_FULL;
        }
        if (why != null) {
            skipped.get(why).increment();
        }
        return why;
    }

    private Skip skipReason(InetAddress ldns, Address key) {
        if (isExcluded(ldns)) {
            return Skip.EXCLUDED;
        }
        LdnsEntry e = table.get(key);
        long now = table.clock().millis();
        if (e != null) {
            if (e.state() == LdnsEntry.State.UNPROBEABLE && now < e.retryAt()) {
                return Skip.FRESH;
            }
            int own = e.pathIndex(dataCenter);
            if (own >= 0 && now - e.measuredAt(own) < settings.minInterval().toMillis()) {
                return Skip.FRESH;
            }
        }
        return null;
    }

    private void work() {
        while (running) {
            Address key;
            try {
                key = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                measure(key.inetAddress(), probersInOrder(orderFor(key)));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("probing {} failed: {}", key, e.toString());
            } finally {
                pending.remove(key);
            }
        }
    }

    /** The configured order, with the protocol that last answered this data center's probes first. */
    private List<ProbeProtocol> orderFor(Address key) {
        Path own = ownPath(key);
        ProbeProtocol last = own == null ? null : own.protocol();
        List<ProbeProtocol> configured = settings.protocols();
        if (last == null || !configured.contains(last) || configured.getFirst() == last) {
            return configured;
        }
        List<ProbeProtocol> order = new ArrayList<>(List.of(last));
        configured.stream().filter(p -> p != last).forEach(order::add);
        return order;
    }

    private List<Prober> probersInOrder(List<ProbeProtocol> order) {
        List<Prober> list = new ArrayList<>();
        for (ProbeProtocol p : order) {
            Prober prober = probers.get(p);
            if (prober != null) {
                list.add(prober);
            }
        }
        return list;
    }

    /**
     * Probes now and records the result (the operator's `gslb ldns probe`): skips de-duplication
     * and the minimum interval, never the exclusions or the rate cap.
     */
    public ProbeResult probeNow(InetAddress ldns, ProbeProtocol only) throws InterruptedException {
        if (isExcluded(ldns)) {
            throw new IllegalArgumentException(ldns.getHostAddress() + " is in the probe exclusion list");
        }
        return measure(ldns, probersInOrder(only == null ? orderFor(Address.of(ldns)) : List.of(only)));
    }

    private ProbeResult measure(InetAddress ldns, List<Prober> order) throws InterruptedException {
        Address key = Address.of(ldns);
        Path known = ownPath(key);
        long pathTtl = table.settings().pathTtl().toMillis();
        ProbeRound.Expectation expected = null;
        long startedAt = table.clock().millis();
        if (settings.checkFirst()
                && known != null
                && known.freshAt(startedAt, pathTtl)
                && !order.isEmpty()
                && order.getFirst().protocol() == known.protocol()
                && !contested(key, known, startedAt, pathTtl)) {
            expected = new ProbeRound.Expectation(
                    known.protocol(),
                    known.rttMicros(),
                    RttEstimator.tolerance(known.rttMicros(), known.jitterMicros()));
        }
        ProbeResult r = round(order, ldns, expected);
        if (r.probeable()) {
            long now = table.clock().millis();
            Path previous = ownPath(key); // again: a peer's news may have come in meanwhile
            boolean carriedOn =
                    previous != null && previous.protocol() == r.protocol() && previous.freshAt(now, pathTtl);
            // A changed path or one unlucky round: a second round at once tells which (RttEstimator).
            ProbeResult again = carriedOn && RttEstimator.looksChanged(previous, r) ? confirming(r, ldns) : null;
            RttEstimator.Estimate est;
            if (again == null) {
                est = estimator.next(carriedOn ? previous : null, r);
            } else {
                est = estimator.next(previous, r, again);
                r = r.and(again);
                now = table.clock().millis();
            }
            int hops = r.hops() == 0 && previous != null ? previous.hops() : r.hops(); // cur_last_hops
            table.recordPath(
                    key,
                    Path.of(
                            dataCenter,
                            est.rttMicros(),
                            est.completion(),
                            hops,
                            r.protocol(),
                            now,
                            instance,
                            est.jitterMicros()));
            probed.increment();
        } else {
            table.markUnprobeable(key);
            unprobeable.increment();
        }
        return r;
    }

    /** A full round of {@code first}'s protocol, or null when it got no reply. */
    private ProbeResult confirming(ProbeResult first, InetAddress ldns) throws InterruptedException {
        ProbeResult again = round(List.of(probers.get(first.protocol())), ldns, null);
        return again.probeable() ? again : null;
    }

    private ProbeResult round(List<Prober> order, InetAddress ldns, ProbeRound.Expectation expected)
            throws InterruptedException {
        ProbeResult r = new ProbeRound(order, settings.samples(), settings.timeout(), limiter).run(ldns, expected);
        packetsSent.increment(r.sent());
        packetsReplied.increment(r.replies());
        return r;
    }

    /**
     * Whether another data center's fresh path to {@code key} is close to {@code own}: then the ranking
     * of the two hangs on the next rounds, and a refresh takes all its samples instead of one.
     */
    private boolean contested(Address key, Path own, long now, long pathTtl) {
        LdnsEntry e = table.get(key);
        if (e == null) {
            return false;
        }
        for (int i = 0; i < e.pathCount(); i++) {
            if (!e.dataCenter(i).equals(dataCenter)
                    && e.freshAt(i, now, pathTtl)
                    && RttEstimator.contested(own.rttMicros(), own.jitterMicros(), e.rttMicros(i))) {
                return true;
            }
        }
        return false;
    }

    /** This data center's path to {@code key}, or null. */
    private Path ownPath(Address key) {
        LdnsEntry e = table.get(key);
        int own = e == null ? -1 : e.pathIndex(dataCenter);
        return own < 0 ? null : e.path(own);
    }

    private void refreshLoop() {
        // An eighth of the interval: a path is re-measured at most refresh x 9/8 after its last round.
        long tick = Math.clamp(settings.refresh().toMillis() / 8, 250, 30_000);
        while (running) {
            try {
                Thread.sleep(tick);
                refreshDue(tick);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("path refresh scan failed: {}", e.toString());
            }
        }
    }

    /**
     * One refresh scan: the LDNS in use (asked within the refresh interval) whose path from here
     * is older than {@code refresh} are asked for, most recent then most frequent askers first, as
     * many as half the rate cap allows in one tick; {@link #request} still applies the minimum
     * interval, the exclusions and the queue bound. Records the achieved ages.
     */
    void refreshDue(long tickMillis) {
        long now = table.clock().millis();
        long refresh = settings.refresh().toMillis();
        long inUse = refresh + ProximityTable.TOUCH_GRANULARITY_MILLIS;
        List<LdnsEntry> due = new ArrayList<>();
        List<Address> dueKeys = new ArrayList<>();
        List<Long> ages = new ArrayList<>();
        for (Map.Entry<Address, LdnsEntry> x : table.entries()) {
            LdnsEntry e = x.getValue();
            if (now - e.lastUsed() > inUse || e.state() == LdnsEntry.State.UNPROBEABLE && now < e.retryAt()) {
                continue;
            }
            int own = e.pathIndex(dataCenter);
            long age = own < 0 ? Long.MAX_VALUE : now - e.measuredAt(own);
            if (own >= 0) {
                ages.add(age);
            }
            if (age > refresh) {
                due.add(e);
                dueKeys.add(x.getKey());
            }
        }
        ages.sort(null);
        refreshAgeP50 = ages.isEmpty() ? Double.NaN : ages.get((ages.size() - 1) / 2) / 1000.0;
        refreshAgeP99 = ages.isEmpty() ? Double.NaN : ages.get((int) Math.ceil(ages.size() * 0.99) - 1) / 1000.0;
        Integer[] order = new Integer[due.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order,
                java.util.Comparator.<Integer>comparingLong(i -> -due.get(i).lastUsed())
                        .thenComparingInt(i -> -due.get(i).uses()));
        long budget = Math.max(1, settings.ratePerSecond() * tickMillis / 1000 / (2L * settings.samples()));
        for (int i = 0; i < order.length && budget > 0; i++) {
            Address key = dueKeys.get(order[i]);
            if (request(key.inetAddress(), key) == null) {
                budget--;
            }
        }
    }

    /** The median and 99th-percentile age (seconds) of the paths in use at the last refresh scan. */
    public double[] refreshAges() {
        return new double[] {refreshAgeP50, refreshAgeP99};
    }

    @Override
    public void close() {
        running = false;
        workers.forEach(Thread::interrupt);
    }
}
