package dev.gslb.sync;

import static dev.gslb.sync.RuntimeStateExchange.NONE;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadMonitor;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.site.Site;
import dev.gslb.site.SitePublisher;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** One instance's sync side on loopback: its own proximity table, scheduler and peer sync. */
final class Node implements AutoCloseable {
    /** The data centers of the tests' configuration: a join may claim only these. */
    static final java.util.Set<String> DATA_CENTERS = java.util.Set.of("CNC", "TEL", "CMCC", "BGP", "CTT");

    final String name;
    final String dc;
    final InetAddress source;
    final ProximityTable table;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final HealthMonitor health;
    final LinkMonitor links;
    final LoadMonitor loads;
    final ProbeScheduler scheduler;
    final SitePublisher site;
    final PeerSync sync;
    final Path peersFile;
    final Path identityFile;
    /** The sync's clock: the system's, moved on by a test that needs time to pass (a join token's expiry). */
    final Shifted clock = new Shifted();

    Node(String name, String dc, String source, int ldnsPort, Path dir, List<HealthTarget> targets) throws Exception {
        this(
                name,
                dc,
                source,
                ldnsPort,
                dir,
                targets,
                List.of(new InetSocketAddress(InetAddress.ofLiteral(source), 0)));
    }

    Node(
            String name,
            String dc,
            String source,
            int ldnsPort,
            Path dir,
            List<HealthTarget> targets,
            List<InetSocketAddress> listen)
            throws Exception {
        this(name, dc, source, ldnsPort, dir, targets, listen, Duration.ofSeconds(2400));
    }

    Node(
            String name,
            String dc,
            String source,
            int ldnsPort,
            Path dir,
            List<HealthTarget> targets,
            List<InetSocketAddress> listen,
            Duration pathTtl)
            throws Exception {
        this(name, dc, source, ldnsPort, dir, targets, listen, pathTtl, s -> s);
    }

    /** {@code tweak} changes the test's sync settings (short join-token TTL, small handshake cap...). */
    Node(
            String name,
            String dc,
            String source,
            int ldnsPort,
            Path dir,
            List<HealthTarget> targets,
            List<InetSocketAddress> listen,
            Duration pathTtl,
            java.util.function.UnaryOperator<SyncSettings> tweak)
            throws Exception {
        this(
                name, dc, source, ldnsPort, dir, targets, listen, pathTtl, tweak, 1_000_000, List.of(), s -> {},
                List.of());
    }

    /**
     * {@code maxLdns}: the table's cap (the scale figures hold millions); {@code links}: every
     * configured link; {@code owners} sets the owners of what this node exchanges whole (runtime
     * states, keys) before its sync starts;
     * {@code loadTargets}: every server with a load (this node polls its own data center's).
     */
    Node(
            String name,
            String dc,
            String source,
            int ldnsPort,
            Path dir,
            List<HealthTarget> targets,
            List<InetSocketAddress> listen,
            Duration pathTtl,
            java.util.function.UnaryOperator<SyncSettings> tweak,
            int maxLdns,
            List<LinkSpec> links,
            java.util.function.Consumer<PeerSync> owners,
            List<LoadTarget> loadTargets)
            throws Exception {
        this.table = new ProximityTable(
                ProximitySettings.DEFAULTS
                        .withNewPerNetwork(1_000_000, 1_000_000)
                        .withMaxLdns(maxLdns),
                Clock.systemUTC());
        this.name = name;
        this.dc = dc;
        this.source = InetAddress.ofLiteral(source);
        this.peersFile = dir.resolve(name + ".peers");
        this.health = new HealthMonitor(targets, Clock.systemUTC(), registry);
        this.links = new LinkMonitor(links, dc, name, Clock.systemUTC(), registry);
        this.site = new SitePublisher(
                Site.numbered(
                        targets.stream().map(HealthTarget::server).toList(),
                        links.stream().map(LinkSpec::link).toList()),
                true,
                clock);
        health.onChange(site::localHealth);
        this.links.onChange(site::localLink);
        site.resite(site.state().site(), health::state, this.links::local);
        this.loads = new LoadMonitor(loadTargets, dc, Clock.systemUTC(), registry);
        loads.onChange(site::localLoad);
        ProbeSettings ps = new ProbeSettings(
                this.source,
                List.of(ProbeProtocol.DNS_DOT),
                3,
                Duration.ofSeconds(1),
                1000,
                16,
                Duration.ofSeconds(60),
                ldnsPort,
                ldnsPort,
                List.of(),
                200_000,
                1_000_000);
        this.scheduler =
                new ProbeScheduler(table, ps, dc, name, List.of(DnsProber.dot(this.source, ldnsPort)), registry);
        this.identityFile = dir.resolve(name + "-identity.pem");
        SyncSettings d = SyncSettings.of(listen, peersFile, Duration.ofMillis(200), Duration.ofSeconds(1), pathTtl);
        SyncSettings settings = tweak.apply(new SyncSettings(
                d.listen(),
                List.of(),
                peersFile,
                identityFile,
                d.heartbeat(),
                d.deadAfter(),
                pathTtl,
                d.healthTtl(),
                d.probeTtl(),
                200_000,
                d.joinTokenTtl(),
                d.handshakeTimeout(),
                d.limits(),
                d.maxClockSkew(),
                1_000_000));
        this.sync = new PeerSync(
                settings, name, dc, table, health, this.links, scheduler, site, () -> DATA_CENTERS, clock, registry);
        owners.accept(sync);
        sync.shareLoads(loads);
        sync.start();
        this.links.start();
        loads.start();
    }

    /** A node listening on its source address alone, with {@code tweak} applied to its sync settings. */
    static Node tweaked(
            String name, String dc, String source, Path dir, java.util.function.UnaryOperator<SyncSettings> tweak)
            throws Exception {
        return on(name, dc, source, dir, tweak, 1_000_000, List.of(), NONE);
    }

    /** A node listening on its source address alone whose runtime states' owner is {@code runtime}. */
    static Node withRuntimeStates(String name, String dc, String source, Path dir, RuntimeStateExchange runtime)
            throws Exception {
        return on(name, dc, source, dir, t -> t, 1_000_000, List.of(), runtime);
    }

    /** A node listening on its source address alone whose DNSSEC keys' owner is {@code keys}. */
    static Node withKeys(String name, String dc, String source, Path dir, KeyExchange keys) throws Exception {
        return on(name, dc, source, dir, List.of(), t -> t, 1_000_000, List.of(), s -> s.exchangeKeys(keys), List.of());
    }

    /** A node listening on its source address alone, with a table of {@code maxLdns} and these links. */
    static Node on(
            String name,
            String dc,
            String source,
            Path dir,
            java.util.function.UnaryOperator<SyncSettings> tweak,
            int maxLdns,
            List<LinkSpec> links,
            RuntimeStateExchange runtime)
            throws Exception {
        return on(
                name,
                dc,
                source,
                dir,
                List.of(),
                tweak,
                maxLdns,
                links,
                s -> s.exchangeRuntimeStates(runtime),
                List.of());
    }

    /** A node with these servers (no monitors) and their loads, polling its own data center's. */
    static Node withLoads(
            String name, String dc, String source, Path dir, List<HealthTarget> servers, List<LoadTarget> loads)
            throws Exception {
        return on(name, dc, source, dir, servers, s -> s, 1_000_000, List.of(), s -> {}, loads);
    }

    private static Node on(
            String name,
            String dc,
            String source,
            Path dir,
            List<HealthTarget> servers,
            java.util.function.UnaryOperator<SyncSettings> tweak,
            int maxLdns,
            List<LinkSpec> links,
            java.util.function.Consumer<PeerSync> owners,
            List<LoadTarget> loads)
            throws Exception {
        return new Node(
                name,
                dc,
                source,
                9,
                dir,
                servers,
                List.of(new InetSocketAddress(InetAddress.ofLiteral(source), 0)),
                Duration.ofSeconds(2400),
                tweak,
                maxLdns,
                links,
                owners,
                loads);
    }

    /**
     * A session to this node speaking as {@code peer} (paired with it), whose own sync is closed:
     * the test sends what it likes in the peer's name.
     */
    PeerSyncTest.Session speakAs(Node peer) throws Exception {
        peer.sync.close();
        SyncIdentity id = SyncIdentity.loadOrCreate(peer.identityFile, peer.name);
        PeerSyncTest.Session s = PeerSyncTest.Session.open(
                this, id, new Hello(Wire.PROTOCOL_VERSION, peer.name, peer.dc, List.of(), null));
        s.reply();
        return s;
    }

    LdnsEntry entry(String ldns) {
        return table.get(Address.parse(ldns));
    }

    boolean hasPath(String ldns, String dataCenter) {
        LdnsEntry e = entry(ldns);
        return e != null && e.path(dataCenter) != null;
    }

    boolean connectedTo(String peer) {
        return sync.status().stream()
                .anyMatch(s -> s.name().equals(peer) && s.state().equals("connected"));
    }

    @Override
    public void close() {
        sync.close();
        scheduler.close();
        health.close();
        links.close();
        loads.close();
        site.close();
    }

    /** Pairs two nodes as an operator would: pair on one, join with its token on the other. */
    static void pair(Node first, Node second) throws Exception {
        second.sync.join(first.sync.pair(List.of()).token()); // returns once connected and authenticated
        Awaits.until(
                first.name + " and " + second.name + " connected both ways",
                Duration.ofSeconds(10),
                () -> first.connectedTo(second.name) && second.connectedTo(first.name));
    }

    /** The system clock plus an offset a test moves on, instead of sleeping. */
    static final class Shifted extends Clock {
        private final java.util.concurrent.atomic.AtomicLong offsetMillis =
                new java.util.concurrent.atomic.AtomicLong();

        void advance(Duration d) {
            offsetMillis.addAndGet(d.toMillis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + offsetMillis.get();
        }

        @Override
        public java.time.Instant instant() {
            return java.time.Instant.ofEpochMilli(millis());
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
