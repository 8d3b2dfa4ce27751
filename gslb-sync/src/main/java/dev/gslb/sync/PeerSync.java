package dev.gslb.sync;

import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance in step with its peers (one per data center): each side sends the paths
 * its own data center measured, its health view of every virtual server, its own links' state and
 * traffic, and requests to probe
 * an LDNS it has just met. Connections are TLS 1.3 between pinned self-signed certificates
 * ({@link Handshake}); a peer is bound by what it was paired as. The jobs live apart: accepting
 * and authenticating ({@link SyncListener}), dialling and sending ({@link PeerLink}), merging what
 * arrives ({@link Inbox}), offered pairings ({@link Pairings}, {@link JoinToken}). This class
 * wires them, keeps the list of peers, and answers the admin API. Nothing here is on the query
 * path except a lock-free lookup.
 */
public final class PeerSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerSync.class);
    private static final long JOIN_WAIT_MILLIS = 15_000;

    /** What `gslb peer list` shows for one peer. */
    public record Status(
            String name,
            String dataCenter,
            List<String> addresses,
            String inUse,
            String state,
            String lastHeartbeat,
            long itemsSent,
            long itemsReceived,
            long dropped,
            int queued,
            Long lagMillis,
            String fingerprint) {}

    /** A pairing offer: the token carries this instance's addresses, fingerprint and a one-time secret. */
    public record Pairing(String token, Instant expires, List<String> warnings) {}

    private final SyncSettings settings;
    /** The data centers of the running configuration (a reload may change them): a join may claim only these. */
    private final Supplier<Set<String>> dataCenters;

    private final String instance;
    private final String dataCenter;
    private volatile Hello.Factory me;
    private final ProximityTable table;
    private final HealthMonitor health;
    private final LinkMonitor ispLinks;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Map<String, PeerLink> links = new ConcurrentHashMap<>();
    /** The links as a list, replaced on every change: the query path walks it by index, allocating nothing. */
    private volatile List<PeerLink> linkList = List.of();

    private final PeerProbeRequests probeRequests;
    private final Pairings pairings;
    private final Inbox inbox;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private SyncIdentity identity;
    private SyncListener listener;
    private volatile boolean running = true;
    private volatile ConfigExchange config = ConfigExchange.NONE;
    private volatile PersistenceExchange persistence = PersistenceExchange.NONE;

    public PeerSync(
            SyncSettings settings,
            String instance,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            LinkMonitor ispLinks,
            ProbeScheduler scheduler,
            Supplier<Set<String>> dataCenters,
            Clock clock,
            MeterRegistry registry) {
        this.settings = settings;
        this.dataCenters = dataCenters;
        this.instance = instance;
        this.dataCenter = dataCenter;
        this.me = new Hello.Factory(instance, dataCenter, settings.advertise());
        this.table = table;
        this.health = health;
        this.ispLinks = ispLinks;
        this.clock = clock;
        this.registry = registry;
        this.pairings = new Pairings(clock);
        this.probeRequests = new PeerProbeRequests(scheduler, settings, () -> linkList);
        this.inbox = new Inbox(settings, dataCenter, table, health, ispLinks, scheduler, clock, registry);
    }

    public void start() throws IOException {
        identity = SyncIdentity.loadOrCreate(settings.identityFile(), instance);
        List<Peer> paired = PeersFile.read(settings.peersFile()); // a refused file stops the start before any bind
        listener = new SyncListener(
                settings,
                identity.context(new PinnedTrust(this::mayConnect)),
                () -> me.hello(),
                this::admit,
                (ch, peer) -> inbox.session(ch, peer, () -> {
                    PeerLink link = links.get(peer.name());
                    if (link != null) {
                        link.wake(); // the path works now: our own connection to it need not wait out its backoff
                    }
                }),
                this::advertisedByPeer,
                registry);
        List<InetSocketAddress> bound = new ArrayList<>();
        for (InetSocketAddress a : settings.listen()) {
            bound.add(listener.listen(a));
            log.info(
                    "peer sync listening on {} (TLS, certificate {})",
                    Address.hostPort(bound.getLast()),
                    identity.fingerprint());
        }
        // Advertise what was bound: a configured port 0 becomes the port the kernel gave.
        List<InetSocketAddress> advertised = new ArrayList<>();
        for (InetSocketAddress a : settings.advertise()) {
            int i = settings.listen().indexOf(a);
            advertised.add(a.getPort() == 0 && i >= 0 ? bound.get(i) : a);
        }
        me = new Hello.Factory(instance, dataCenter, advertised);
        for (Peer p : paired) {
            connect(p, null);
        }
        table.onPathRecorded((key, path) -> {
            if (path.dataCenter().equals(me.dataCenter())) {
                broadcast(new Item.PathItem(key, path, settings.pathTtl().toMillis()));
            }
        });
        health.onChange((server, state) -> broadcast(healthItem(server, state)));
        ispLinks.onChange(state -> broadcast(linkItem(state)));
        threads.add(Thread.ofVirtual().name("sync-housekeeping").start(this::housekeeping));
    }

    /** The actual listen addresses (ports filled in when 0 was configured). */
    public List<InetSocketAddress> listening() {
        return listener.listening();
    }

    /** Why a sync listener stopped accepting, one line each; empty while all accept (for /health). */
    public List<String> listenerFailures() {
        return listener == null ? List.of() : listener.failures();
    }

    /** This instance's certificate fingerprint (what peers pin). */
    public String fingerprint() {
        return identity.fingerprint();
    }

    /** The acceptor's trust: a pinned peer, or anyone while a pairing waits (its JOIN must then carry the secret). */
    private boolean mayConnect(String fingerprint) {
        return peerByFingerprint(fingerprint) != null || pairings.waiting();
    }

    /** Whether a paired peer advertises {@code a}: connections from it get handshake slots of their own. */
    private boolean advertisedByPeer(InetAddress a) {
        for (PeerLink l : linkList) {
            for (InetSocketAddress s : l.peer().addresses()) {
                if (a.equals(s.getAddress())) {
                    return true;
                }
            }
        }
        return false;
    }

    private Peer peerByFingerprint(String fingerprint) {
        for (PeerLink l : links.values()) {
            if (l.peer().fingerprint().equals(fingerprint)) {
                return l.peer();
            }
        }
        return null;
    }

    /**
     * The peer an authenticated connection is: the pinned one with this certificate (which must
     * say the name and data center it was paired as), or a new one whose JOIN carries the secret
     * of a pending pairing.
     */
    private Peer admit(Hello hello, String fingerprint) throws Wire.ProtocolException {
        Peer known = peerByFingerprint(fingerprint);
        if (known != null) {
            Handshake.checkClaims(hello, known);
            if (!hello.addresses().isEmpty() && !hello.addresses().equals(known.addresses())) {
                log.info("peer {} now advertises {}", known.name(), hello.addresses());
                addPeer(known.at(hello.addresses()), null);
            }
            return known;
        }
        if (hello.secret() == null) {
            throw new Wire.ProtocolException("not a paired certificate, and no join secret");
        }
        Peer peer;
        synchronized (this) { // the rules, the secret and the new peer at once: of racing joins, one is admitted
            JoinTerms terms = pairings.terms(hello.secret());
            if (terms == null) {
                throw new Wire.ProtocolException("the join secret is unknown, used or expired");
            }
            JoinRules.checkJoin(hello, terms, instance, dataCenter, dataCenters.get(), peers());
            pairings.take(hello.secret());
            peer = new Peer(hello.instance(), hello.dataCenter(), hello.addresses(), fingerprint);
            addPeer(peer, null);
        }
        log.info(
                "paired with {} in {} at {} (certificate {})",
                peer.name(),
                peer.dataCenter(),
                peer.addresses(),
                fingerprint);
        return peer;
    }

    private List<Peer> peers() {
        return links.values().stream().map(PeerLink::peer).toList();
    }

    private Item.HealthItem healthItem(String server, HealthState state) {
        return new Item.HealthItem(
                server, state, clock.millis(), settings.healthTtl().toMillis());
    }

    private Item.LinkItem linkItem(LinkState s) {
        return new Item.LinkItem(
                s.name(),
                s.state(),
                s.inBps(),
                s.outBps(),
                s.overLimit(),
                s.reason(),
                s.measuredAt() == 0 ? clock.millis() : s.measuredAt(),
                settings.healthTtl().toMillis());
    }

    /** This instance's measurements of its own data center's links. */
    private void forEachLocalLink(Consumer<Item> out) {
        for (LinkSpec l : ispLinks.specs()) {
            LinkState s = ispLinks.local(l.name());
            if (s != null) {
                out.accept(linkItem(s));
            }
        }
    }

    private void broadcast(Item item) {
        for (PeerLink l : links.values()) {
            l.offer(item);
        }
    }

    /**
     * Who decides about the shared configuration: what it offers goes to every (re)connected
     * peer, what peers offer goes to it. Set before {@link #start()}.
     */
    public void exchangeConfig(ConfigExchange exchange) {
        this.config = exchange;
        inbox.config = exchange;
    }

    /** Where peers' persistence entries go, and where a (re)connected peer's snapshot reads them. Set before start. */
    public void exchangePersistence(PersistenceExchange exchange) {
        this.persistence = exchange;
        inbox.persistence = exchange;
    }

    /** This instance answered a client network of a persistent wide IP: the peers remember it too. Never blocks. */
    public void publishPersistence(PersistenceExchange.Persisted p) {
        long now = clock.millis();
        if (!linkList.isEmpty() && p.expiresAt() > now) {
            broadcast(new Item.PersistItem(p.wideIp(), p.hi(), p.lo(), p.server(), now, p.expiresAt() - now));
        }
    }

    /** This instance's configuration changed: its content goes to every peer. */
    public void publishConfig() {
        ConfigExchange.Offer o = config.current();
        if (o != null) {
            broadcast(new Item.ConfigItem(o, clock.millis()));
        }
    }

    /** Tells every peer which configuration this instance serves (and what it refused), without the content. */
    public void tellConfigState() {
        ConfigExchange.Offer o = config.current();
        if (o != null) {
            broadcast(new Item.ConfigItem(o.stateOnly(), clock.millis()));
        }
    }

    /** Everything a (re)connected peer should have: this side's fresh paths and its health view. */
    private void snapshot(Consumer<Item> out) {
        long ttl = settings.pathTtl().toMillis();
        table.forEachPath(me.dataCenter(), (k, p) -> out.accept(new Item.PathItem(k, p, ttl)));
        for (String server : health.targets()) {
            out.accept(healthItem(server, health.state(server)));
        }
        forEachLocalLink(out);
        ConfigExchange.Offer o = config.current();
        if (o != null) {
            out.accept(new Item.ConfigItem(o, clock.millis()));
        }
        long now = clock.millis();
        persistence.forEachLive(p ->
                out.accept(new Item.PersistItem(p.wideIp(), p.hi(), p.lo(), p.server(), now, p.expiresAt() - now)));
    }

    private synchronized PeerLink connect(Peer p, byte[] joinSecret) {
        SSLContext tls = identity.context(new PinnedTrust(p.fingerprint()::equals));
        PeerLink link = new PeerLink(p, me, settings, tls, this::snapshot, joinSecret);
        PeerLink old = links.put(p.name(), link);
        linkList = List.copyOf(links.values());
        if (old != null) {
            old.close();
        }
        return link;
    }

    /** Expiry of received items, health re-sent so views stay fresh, the probe-request memory bounded. */
    private void housekeeping() {
        while (running) {
            try {
                Thread.sleep(settings.heartbeat());
            } catch (InterruptedException e) {
                return;
            }
            long now = clock.millis();
            long ttl = settings.pathTtl().toMillis();
            table.removePaths(p -> !p.dataCenter().equals(me.dataCenter()) && p.measuredAt() + ttl < now);
            inbox.expire(now);
            probeRequests.expire(now);
            for (String server : health.targets()) {
                broadcast(healthItem(server, health.state(server)));
            }
            forEachLocalLink(this::broadcast);
            tellConfigState();
        }
    }

    // ---- the query path's two hooks ----

    /** The local scheduler, decorated: what this side has just met, the peers are asked to measure too. */
    public ProbeRequests probeRequests() {
        return probeRequests;
    }

    /**
     * A virtual server's health as this instance answers by it: the local monitors decide; where
     * they say UNKNOWN (not checked yet, or no monitors) a peer's fresh view fills in. A peer never
     * overrides a local DOWN or UP.
     */
    public HealthState mergedView(String server) {
        HealthState local = health.state(server);
        return local == HealthState.UNKNOWN ? peerView(server) : local;
    }

    /**
     * A link as this instance answers by it: its own measurement for a link of its data center,
     * else the fresh one of the peer on that link, else null (unknown: it neither spills nor fails).
     * Lock-free, for the query path.
     */
    public LinkState link(String name) {
        LinkState local = ispLinks.local(name);
        return local != null ? local : inbox.peerLink(name);
    }

    /** A peer's fresh view of a virtual server, or UNKNOWN. */
    public HealthState peerView(String server) {
        return inbox.peerView(server);
    }

    // ---- pairing and listing ----

    /** A join token for any instance in a data center the configuration names, other than this one's and its peers'. */
    public Pairing pair(List<InetSocketAddress> advertise) {
        return pair(advertise, null, false);
    }

    /**
     * A join token for another instance: this instance's name, data center, addresses
     * ({@code advertise}, or the configured ones), certificate fingerprint, and a one-time secret
     * that expires, for an instance in {@code dataCenter} (null: any the configuration names) that
     * may share a data center with this one or a peer when {@code sharedDataCenter}. Refused when
     * an address is a wildcard, which no peer can dial, or when no join could meet the terms.
     */
    public Pairing pair(List<InetSocketAddress> advertise, String dataCenter, boolean sharedDataCenter) {
        List<InetSocketAddress> addresses = advertise == null || advertise.isEmpty() ? me.addresses() : advertise;
        List<String> warnings = JoinToken.checkAddresses(addresses);
        JoinTerms terms = new JoinTerms(dataCenter, sharedDataCenter);
        JoinRules.checkOffer(terms, this.dataCenter, dataCenters.get());
        long expires = clock.millis() + settings.joinTokenTtl().toMillis();
        JoinToken token = new JoinToken(
                new Peer(me.instance(), me.dataCenter(), addresses, identity.fingerprint()),
                pairings.offer(expires, terms),
                expires,
                terms);
        return new Pairing(token.encode(), Instant.ofEpochMilli(expires), warnings);
    }

    /**
     * Joins the instance that made {@code token}: dials it, proves the secret, pins each other.
     * Returns the peer's name only after the first authenticated connection; otherwise throws with
     * the reason (expired token, unreachable, refused certificate).
     */
    public String join(String token) throws IOException {
        JoinToken t = JoinToken.parse(token);
        Peer peer = t.offerer();
        if (peer.name().equals(me.instance())) {
            throw new IllegalArgumentException("this token was made by this instance; run the join on the other one");
        }
        if (t.expiresMillis() < clock.millis()) {
            throw new IllegalArgumentException("this join token expired at " + Instant.ofEpochMilli(t.expiresMillis())
                    + "; run `gslb peer pair` on " + peer.name() + " again");
        }
        JoinRules.checkToken(t, me.dataCenter());
        PeerLink link = connect(peer, t.secret());
        String failure;
        try {
            failure = link.first.get(JOIN_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            failure = "no authenticated connection within " + JOIN_WAIT_MILLIS / 1000 + " s";
        } catch (InterruptedException | ExecutionException e) {
            failure = e.toString();
        }
        if (failure != null) {
            synchronized (this) {
                links.remove(peer.name(), link);
                linkList = List.copyOf(links.values());
            }
            link.close();
            throw new IOException("could not join " + peer.name() + " at "
                    + String.join(
                            ",",
                            peer.addresses().stream().map(Address::hostPort).toList()) + ": " + failure);
        }
        addPeer(peer, link);
        return peer.name();
    }

    /** Saves {@code peer} with the others; connects to it unless {@code link} already does. */
    private synchronized void addPeer(Peer peer, PeerLink link) {
        List<Peer> peers = new ArrayList<>(links.values().stream()
                .map(PeerLink::peer)
                .filter(p -> !p.equals(peer))
                .toList());
        peers.add(peer);
        save(peers);
        if (link == null) {
            connect(peer, null);
        }
    }

    /** Forgets a peer and its certificate here; run it on both sides to dissolve a pair. */
    public synchronized boolean remove(String name) {
        PeerLink link = links.remove(name);
        if (link == null) {
            return false;
        }
        linkList = List.copyOf(links.values());
        link.close();
        inbox.forget(name);
        save(links.values().stream().map(PeerLink::peer).toList());
        log.info("peer {} removed", name);
        return true;
    }

    private void save(List<Peer> peers) {
        try {
            PeersFile.write(settings.peersFile(), peers);
        } catch (IOException e) {
            log.warn("could not save {}: {}; the change holds until restart", settings.peersFile(), e.getMessage());
        }
    }

    public List<Status> status() {
        List<Status> out = new ArrayList<>();
        for (PeerLink l : links.values()) {
            Peer p = l.peer();
            Inbox.Inbound in = inbox.stats(p.name());
            long lastBeat = Math.max(l.lastHeard, in == null ? 0 : in.lastHeartbeat);
            out.add(new Status(
                    p.name(),
                    p.dataCenter(),
                    p.addresses().stream().map(Address::hostPort).toList(),
                    l.inUse == null ? null : Address.hostPort(l.inUse),
                    l.state.name().toLowerCase(Locale.ROOT),
                    lastBeat == 0 ? null : Instant.ofEpochMilli(lastBeat).toString(),
                    l.sent.get(),
                    in == null ? 0 : in.items.get(),
                    l.dropped.get(),
                    l.queued(),
                    in == null ? null : in.lagMillis(),
                    p.fingerprint()));
        }
        return out;
    }

    /** Bytes this side has written to its peers before TLS (for the bytes-per-update figure). */
    public long bytesSent() {
        return links.values().stream().mapToLong(l -> l.bytes.get()).sum();
    }

    @Override
    public void close() {
        running = false;
        links.values().forEach(PeerLink::close);
        if (listener != null) {
            listener.close();
        }
        inbox.close();
        threads.forEach(Thread::interrupt);
    }
}
