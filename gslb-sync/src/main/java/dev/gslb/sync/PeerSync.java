package dev.gslb.sync;

import dev.gslb.api.PeerStatus;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.load.LoadMonitor;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.site.SitePublisher;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance in step with its peers (one per data center): each side sends the paths
 * its own data center measured, its health view of every virtual server, its own links' state and
 * traffic, and requests to probe an LDNS it has just met; it carries the shared configuration, the
 * runtime states, the DNSSEC keys and persistence entries for their owners. Connections are TLS
 * 1.3 between pinned self-signed certificates ({@link Handshake}); a peer is bound by what it was
 * paired as. The jobs live apart: accepting and authenticating ({@link SyncListener}), dialling ({@link PeerLink}),
 * what is sent ({@link Outbox}) and how what arrives is merged ({@link Inbox}: peers' health and
 * link views go to the {@link SitePublisher}), the paired peers ({@link PeerRoster}), offered
 * pairings ({@link Pairings}, {@link JoinToken}), probe requests to peers
 * ({@link PeerProbeRequests}, told by the scheduler). This class wires them, pairs, and answers
 * the admin API. Nothing here is on the query path.
 */
public final class PeerSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerSync.class);
    private static final long JOIN_WAIT_MILLIS = 15_000;

    /** A pairing offer: the token carries this instance's addresses, fingerprint and a one-time secret. */
    public record Pairing(String token, Instant expires, List<String> warnings) {}

    private final SyncSettings settings;
    /** The data centers of the running configuration (a reload may change them): a join may claim only these. */
    private final Supplier<Set<String>> dataCenters;

    private final String instance;
    private final String dataCenter;
    private volatile Hello.Factory me;
    private final ProximityTable table;
    private final Clock clock;
    private final MeterRegistry registry;
    private final PeerRoster roster;

    private final PeerProbeRequests probeRequests;
    private final Pairings pairings;
    private final Inbox inbox;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private SyncIdentity identity;
    /** The identity being read or made ahead of {@link #start()} ({@link #prepareIdentity()}), or null. */
    private FutureTask<SyncIdentity> identityAhead;

    private SyncListener listener;
    private volatile boolean running = true;
    private final Outbox outbox;
    private final OfferChannel runtimeStates;
    private final OfferChannel keys;

    public PeerSync(
            SyncSettings settings,
            String instance,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            LinkMonitor ispLinks,
            ProbeScheduler scheduler,
            SitePublisher site,
            Supplier<Set<String>> dataCenters,
            Clock clock,
            MeterRegistry registry) {
        this.settings = settings;
        this.dataCenters = dataCenters;
        this.instance = instance;
        this.dataCenter = dataCenter;
        this.me = new Hello.Factory(instance, dataCenter, settings.advertise());
        this.table = table;
        this.clock = clock;
        this.registry = registry;
        this.pairings = new Pairings(clock);
        this.roster = new PeerRoster(settings.peersFile());
        this.probeRequests = new PeerProbeRequests(settings, table.settings().reprobeAfterMillis(), roster::list);
        scheduler.onAsked(probeRequests); // off the query path's structure: the scheduler tells, this side asks peers
        this.runtimeStates = new OfferChannel(OfferKind.RUNTIME_STATES, registry);
        this.keys = new OfferChannel(OfferKind.KEYS, registry);
        List<OfferChannel> offers = List.of(runtimeStates, keys);
        this.outbox = new Outbox(settings, dataCenter, table, health, ispLinks, clock, roster::all, offers);
        this.inbox = new Inbox(settings, dataCenter, table, health, ispLinks, scheduler, site, clock, registry, offers);
    }

    /**
     * Shares the loads of this data center's servers, measured by {@code loads}, and takes the
     * peers' measurements of theirs (each server's from the peer of its data center only). Set
     * before {@link #start()}.
     */
    public void shareLoads(LoadMonitor loads) {
        outbox.loads = loads;
        inbox.loads = loads;
    }

    /**
     * Reads or makes this instance's identity on a thread of its own, for {@link #start()} to take:
     * making one (a P-256 key pair and its signed certificate, on a first start) is 0.1-0.15 s of
     * cold code, which then runs beside the rest of the server's start instead of before its
     * listeners. A failure is {@link #start()}'s, as it would be without this.
     */
    public void prepareIdentity() {
        identityAhead = new FutureTask<>(() -> SyncIdentity.loadOrCreate(settings.identityFile(), instance));
        Thread.ofPlatform().name("sync-identity").daemon().start(identityAhead);
    }

    private SyncIdentity identity() throws IOException {
        if (identityAhead == null) {
            return SyncIdentity.loadOrCreate(settings.identityFile(), instance);
        }
        try {
            return identityAhead.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading the sync identity");
        }
    }

    public void start() throws IOException {
        identity = identity();
        List<Peer> paired = PeersFile.read(settings.peersFile()); // a refused file stops the start before any bind
        listener = new SyncListener(
                settings,
                identity.context(new PinnedTrust(this::mayConnect)),
                () -> me.hello(),
                this::admit,
                (ch, peer) -> inbox.session(ch, peer, () -> {
                    PeerLink link = roster.get(peer.name());
                    if (link != null) {
                        link.wake(); // the path works now: our own connection to it need not wait out its backoff
                    }
                }),
                roster::advertises,
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
        outbox.start();
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
        return roster.byFingerprint(fingerprint) != null || pairings.waiting();
    }

    /**
     * The peer an authenticated connection is: the pinned one with this certificate (which must
     * say the name and data center it was paired as), or a new one whose JOIN carries the secret
     * of a pending pairing.
     */
    private Peer admit(Hello hello, String fingerprint) throws Wire.ProtocolException {
        Peer known = roster.byFingerprint(fingerprint);
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
            JoinRules.checkJoin(hello, terms, instance, dataCenter, dataCenters.get(), roster.peers());
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

    /**
     * Who decides about the shared configuration: what it offers goes to every (re)connected
     * peer, what peers offer goes to it. Set before {@link #start()}.
     */
    public void exchangeConfig(ConfigExchange exchange) {
        outbox.config = exchange;
        inbox.config = exchange;
    }

    /** Where peers' persistence entries go, and where a (re)connected peer's snapshot reads them. Set before start. */
    public void exchangePersistence(PersistenceExchange exchange) {
        outbox.persistence = exchange;
        inbox.persistence = exchange;
    }

    /**
     * Who decides about the runtime states (what operators disabled, drained or enabled): what it
     * offers goes to every (re)connected peer, what peers offer goes to it (at most ten a second
     * from each, {@link OfferPacer}). Set before {@link #start()}.
     */
    public void exchangeRuntimeStates(RuntimeStateExchange exchange) {
        runtimeStates.owner = new OfferExchange() {
            @Override
            public Offer current() {
                RuntimeStateExchange.Offer o = exchange.current();
                return o == null ? null : new Offer(o.generation(), o.origin(), o.states());
            }

            @Override
            public void received(String peer, Offer offer) {
                exchange.received(
                        peer, new RuntimeStateExchange.Offer(offer.generation(), offer.origin(), offer.content()));
            }
        };
    }

    /** This instance's runtime states changed: all of them go to every connected peer. Never blocks. */
    public void publishRuntimeStates() {
        outbox.offer(runtimeStates);
    }

    /**
     * Who decides about the DNSSEC keys: what it offers (its key folder, zipped) goes to every
     * (re)connected peer, what peers offer goes to it (at most ten a second from each, the newest
     * of a faster run kept); it decides what to adopt. Set before {@link #start()}.
     */
    public void exchangeKeys(KeyExchange owner) {
        keys.owner = owner;
    }

    /** This instance's keys changed: its current offer goes to every connected peer. Never blocks. */
    public void publishKeys() {
        outbox.offer(keys);
    }

    /** This instance answered a client network of a persistent wide IP: the peers remember it too. Never blocks. */
    public void publishPersistence(PersistenceExchange.Persisted p) {
        if (!roster.list().isEmpty()) {
            outbox.persisted(p);
        }
    }

    /**
     * Every peer gets a snapshot again: the proximity store was read after the peers connected
     * (the server answers before it reads it), so their first snapshot lacked the stored paths.
     */
    public void resendSnapshots() {
        for (PeerLink l : roster.all()) {
            l.resnapshot();
        }
    }

    /** This instance's configuration changed: its content goes to every peer. */
    public void publishConfig() {
        outbox.config(false);
    }

    /** Tells every peer which configuration this instance serves (and what it refused), without the content. */
    public void tellConfigState() {
        outbox.config(true);
    }

    private synchronized PeerLink connect(Peer p, byte[] joinSecret) {
        SSLContext tls = identity.context(new PinnedTrust(p.fingerprint()::equals));
        PeerLink link = new PeerLink(p, me, settings, tls, outbox::snapshot, joinSecret);
        roster.put(link);
        return link;
    }

    /** Expiry of received paths, health re-sent so views stay fresh, the probe-request memory bounded. */
    private void housekeeping() {
        long ttl = settings.pathTtl().toMillis();
        // Expiring peers' paths walks the whole table (a cache miss an LDNS: about a tenth of a second
        // at 3,000,000), so it runs every 60th of the path TTL (40 s by default), not every heartbeat:
        // a path kept that much past its TTL is shown a little longer, never used (decisions check
        // freshness themselves).
        long expiryEvery = Math.max(settings.heartbeat().toMillis(), ttl / 60);
        long nextExpiry = 0;
        while (running) {
            try {
                Thread.sleep(settings.heartbeat());
            } catch (InterruptedException e) {
                return;
            }
            long now = clock.millis();
            if (now >= nextExpiry) {
                table.removePathsMeasuredBefore(now - ttl, me.dataCenter());
                nextExpiry = now + expiryEvery;
            }
            probeRequests.expire(now);
            outbox.refresh();
        }
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
            roster.withdraw(peer.name(), link);
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
        roster.save(peer);
        if (link == null) {
            connect(peer, null);
        }
    }

    /** Forgets a peer and its certificate here; run it on both sides to dissolve a pair. */
    public synchronized boolean remove(String name) {
        PeerLink link = roster.remove(name);
        if (link == null) {
            return false;
        }
        link.close();
        inbox.forget(name);
        log.info("peer {} removed", name);
        return true;
    }

    public List<PeerStatus> status() {
        List<PeerStatus> out = new ArrayList<>();
        for (PeerLink l : roster.all()) {
            Peer p = l.peer();
            Inbox.Inbound in = inbox.stats(p.name());
            long lastBeat = Math.max(l.lastHeard, in == null ? 0 : in.lastHeartbeat);
            out.add(new PeerStatus(
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
                    in == null ? null : in.clockAheadMillis(),
                    p.fingerprint()));
        }
        return out;
    }

    /** Bytes this side has written to its peers before TLS (for the bytes-per-update figure). */
    public long bytesSent() {
        return roster.all().stream().mapToLong(l -> l.bytes.get()).sum();
    }

    @Override
    public void close() {
        running = false;
        roster.all().forEach(PeerLink::close);
        if (listener != null) {
            listener.close();
        }
        inbox.close();
        threads.forEach(Thread::interrupt);
    }
}
