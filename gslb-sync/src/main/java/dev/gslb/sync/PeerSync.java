package dev.gslb.sync;

import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.health.HealthState;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.LdnsKey;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.probe.schedule.ProbeScheduler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance in step with its peers (one per data center): each side sends the paths
 * its own data center measured, its health view of every virtual server, and requests to probe
 * an LDNS it has just met. Connections are TLS 1.3 between pinned self-signed certificates; a
 * peer is bound by what it was paired as (its data center, its rate). Received items are merged
 * by the rules of design.md: a path has one writer (the instance in that data center) and the
 * newer measurement wins; a peer's health view only fills "unknown". Nothing here is on the query
 * path except a lock-free lookup.
 */
public final class PeerSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerSync.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    static final int SECRET_BYTES = 32;
    private static final int MAX_PENDING_PAIRINGS = 16;
    private static final int MAX_ASKED = 100_000;
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

    private record PeerView(HealthState state, long expiresAt) {}

    private record Pending(byte[] secret, long expiresAt) {}

    private final SyncSettings settings;
    private final String instance;
    private final String dataCenter;
    private volatile Hello.Factory me;
    private final ProximityTable table;
    private final HealthMonitor health;
    private final ProbeScheduler scheduler;
    private final Clock clock;
    private final Map<String, PeerLink> links = new ConcurrentHashMap<>();
    private final Map<String, Inbound> inbound = new ConcurrentHashMap<>();
    private final Map<String, PeerView> peerHealth = new ConcurrentHashMap<>();
    private final Map<LdnsKey, Long> asked = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final List<Pending> pending = new CopyOnWriteArrayList<>();
    private final List<ServerSocket> servers = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Semaphore handshakes;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("sync-deadlines").factory());
    private final Counter refused;
    private final Counter received;
    private final Counter dropped;
    private final Counter clamped;
    private SyncIdentity identity;
    private SSLContext acceptorTls;
    private volatile boolean running = true;

    /** Per-peer receiving side: statistics, and the connection in use. */
    private static final class Inbound {
        final AtomicLong items = new AtomicLong();
        final PeerGuard guard;
        volatile long lastHeartbeat;
        volatile long peerSentAt;
        volatile Socket socket;

        Inbound(PeerGuard guard) {
            this.guard = guard;
        }
    }

    public PeerSync(
            SyncSettings settings,
            String instance,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            ProbeScheduler scheduler,
            Clock clock,
            MeterRegistry registry) {
        this.settings = settings;
        this.instance = instance;
        this.dataCenter = dataCenter;
        this.me = new Hello.Factory(instance, dataCenter, settings.advertise());
        this.table = table;
        this.health = health;
        this.scheduler = scheduler;
        this.clock = clock;
        this.handshakes = new Semaphore(settings.maxHandshakes());
        this.refused = Counter.builder("sync_connections_refused")
                .description(
                        "Peer connections refused: not pinned, bad hello, wrong data center, handshake timeout or cap")
                .register(registry);
        this.received = Counter.builder("sync_items_received").register(registry);
        this.dropped = Counter.builder("sync_items_dropped")
                .description(
                        "Items from peers dropped: over the peer's rate or new-LDNS cap, or about an unknown server")
                .register(registry);
        this.clamped = Counter.builder("sync_items_clamped")
                .description("Items from peers whose measurement time was in the future beyond the allowed skew")
                .register(registry);
    }

    public void start() throws IOException {
        identity = SyncIdentity.loadOrCreate(settings.identityFile(), instance);
        acceptorTls = identity.context(new PinnedTrust(this::mayConnect));
        List<Peer> paired = PeersFile.read(settings.peersFile()); // a refused file stops the start before any bind
        for (InetSocketAddress a : settings.listen()) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            try {
                s.bind(a, 128);
            } catch (java.net.BindException e) {
                s.close();
                throw new java.net.BindException("cannot listen for peer sync on " + PeersFile.format(a) + ": "
                        + e.getMessage() + " (another gslb serve? stop it, or change sync.listen / serve --sync)");
            }
            servers.add(s);
            threads.add(Thread.ofVirtual().name("sync-accept").start(() -> accept(s)));
            log.info(
                    "peer sync listening on {} (TLS, certificate {})",
                    PeersFile.format((InetSocketAddress) s.getLocalSocketAddress()),
                    identity.fingerprint());
        }
        // Advertise what was bound: a configured port 0 becomes the port the kernel gave.
        List<InetSocketAddress> advertised = new ArrayList<>();
        for (InetSocketAddress a : settings.advertise()) {
            int i = settings.listen().indexOf(a);
            advertised.add(
                    a.getPort() == 0 && i >= 0
                            ? (InetSocketAddress) servers.get(i).getLocalSocketAddress()
                            : a);
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
        threads.add(Thread.ofVirtual().name("sync-housekeeping").start(this::housekeeping));
    }

    /** The actual listen addresses (ports filled in when 0 was configured). */
    public List<InetSocketAddress> listening() {
        return servers.stream()
                .map(s -> (InetSocketAddress) s.getLocalSocketAddress())
                .toList();
    }

    /** This instance's certificate fingerprint (what peers pin). */
    public String fingerprint() {
        return identity.fingerprint();
    }

    /** The acceptor's trust: a pinned peer, or anyone while a pairing waits (its JOIN must then carry the secret). */
    private boolean mayConnect(String fingerprint) {
        return peerByFingerprint(fingerprint) != null || pendingPairing();
    }

    private boolean pendingPairing() {
        long now = clock.millis();
        pending.removeIf(p -> p.expiresAt() < now);
        return !pending.isEmpty();
    }

    private Peer peerByFingerprint(String fingerprint) {
        for (PeerLink l : links.values()) {
            if (l.peer().fingerprint().equals(fingerprint)) {
                return l.peer();
            }
        }
        return null;
    }

    private Item.HealthItem healthItem(String server, HealthState state) {
        return new Item.HealthItem(
                server, state, clock.millis(), settings.healthTtl().toMillis());
    }

    private void broadcast(Item item) {
        for (PeerLink l : links.values()) {
            l.offer(item);
        }
    }

    /** Everything a (re)connected peer should have: this side's fresh paths and its health view. */
    private void snapshot(Consumer<Item> out) {
        long ttl = settings.pathTtl().toMillis();
        table.forEachPath(me.dataCenter(), (k, p) -> out.accept(new Item.PathItem(k, p, ttl)));
        for (String server : health.targets()) {
            out.accept(healthItem(server, health.state(server)));
        }
    }

    private synchronized PeerLink connect(Peer p, byte[] joinSecret) {
        SSLContext tls = identity.context(new PinnedTrust(p.fingerprint()::equals));
        PeerLink link = new PeerLink(p, me, settings, tls, this::snapshot, joinSecret);
        PeerLink old = links.put(p.name(), link);
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
            peerHealth.entrySet().removeIf(e -> e.getValue().expiresAt() < now);
            asked.entrySet().removeIf(e -> e.getValue() + settings.probeTtl().toMillis() < now);
            if (warned.size() > 1000) {
                warned.clear();
            }
            for (String server : health.targets()) {
                broadcast(healthItem(server, health.state(server)));
            }
        }
    }

    // ---- the query path's two hooks ----

    /**
     * The local scheduler, decorated: an LDNS this side has just met, that passed the scheduler's
     * checks (not excluded, admitted to the table, within its network's rate) and that a peer's
     * data center has no fresh path to, is also sent to the peers to measure (at most once per
     * probe TTL).
     */
    public ProbeRequests probeRequests() {
        return ldns -> {
            LdnsEntry e = scheduler.noteQuery(ldns);
            if (e == null || links.isEmpty()) {
                return;
            }
            long now = clock.millis();
            long fresh = settings.pathTtl().toMillis() / 2;
            LdnsKey key = null;
            for (PeerLink l : links.values()) {
                Path p = e.path(l.peer().dataCenter());
                if (p == null || now - p.measuredAt() > fresh) {
                    if (key == null) {
                        key = LdnsKey.of(ldns);
                        if (asked.size() >= MAX_ASKED || asked.putIfAbsent(key, now) != null) {
                            return; // asked within the probe TTL already, or too much asked at once
                        }
                    }
                    l.offer(new Item.ProbeItem(key, now, settings.probeTtl().toMillis()));
                }
            }
        };
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

    /** A peer's fresh view of a virtual server, or UNKNOWN. */
    public HealthState peerView(String server) {
        PeerView v = peerHealth.get(server);
        return v == null || v.expiresAt() < clock.millis() ? HealthState.UNKNOWN : v.state();
    }

    // ---- receiving ----

    /**
     * Accepts within limits set before any byte is read: at most max-handshakes connections are
     * in their handshake at once (more are closed at once), and each has a hard deadline.
     */
    private void accept(ServerSocket server) {
        while (running) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            if (!handshakes.tryAcquire()) {
                refused.increment();
                closeQuietly(s);
                continue;
            }
            Thread.ofVirtual()
                    .name("sync-from-" + s.getInetAddress().getHostAddress())
                    .start(() -> serve(s));
        }
    }

    private void serve(Socket raw) {
        String who = raw.getInetAddress().getHostAddress();
        boolean[] authenticated = {false};
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> {
                    if (!authenticated[0]) {
                        closeQuietly(raw);
                    }
                },
                settings.handshakeTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        Peer peer = null;
        try (raw) {
            raw.setSoTimeout((int) settings.handshakeTimeout().toMillis());
            raw.setTcpNoDelay(true);
            SSLSocket s = SyncIdentity.over(acceptorTls, raw, false);
            s.startHandshake();
            String fingerprint = SyncIdentity.fingerprint(s.getSession().getPeerCertificates()[0]);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 65536));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Hello hello = Hello.decode(Wire.read(in));
            who = hello.instance() + " (" + who + ")";
            peer = admit(hello, fingerprint);
            Wire.write(out, Wire.Type.HELLO, me.hello().encode());
            authenticated[0] = true;
            deadline.cancel(false);
            handshakes.release();
            session(s, in, out, peer);
        } catch (SocketTimeoutException e) {
            if (peer != null) { // the link that dials it logs the loss, once
                log.debug(
                        "peer {}: no heartbeat for {} s on its connection; closed",
                        peer.name(),
                        settings.deadAfter().toSeconds());
            } else {
                refuse(who, "no handshake within " + settings.handshakeTimeout().toSeconds() + " s");
            }
        } catch (Wire.ProtocolException | SSLException e) {
            if (peer == null) {
                refuse(who, e.getMessage());
            } else {
                log.warn("peer {}: {}; connection closed", peer.name(), e.getMessage());
            }
        } catch (IOException e) {
            log.debug("peer sync: connection from {} ended: {}", who, e.toString());
        } finally {
            if (!authenticated[0]) {
                deadline.cancel(false);
                handshakes.release();
            }
        }
    }

    private void refuse(String who, String why) {
        refused.increment();
        if (warned.add(who + why)) { // once per source and reason until the memory is cleared
            log.warn("peer sync: refused {}: {}", who, why);
        }
    }

    /**
     * The peer this authenticated connection is: the pinned one with this certificate (which must
     * say the name and data center it was paired as), or a new one whose JOIN carries the secret
     * of a pending pairing.
     */
    private Peer admit(Hello hello, String fingerprint) throws Wire.ProtocolException {
        Peer known = peerByFingerprint(fingerprint);
        if (known != null) {
            if (!hello.instance().equals(known.name()) || !hello.dataCenter().equals(known.dataCenter())) {
                throw new Wire.ProtocolException("it claims to be " + hello.instance() + " in data center "
                        + hello.dataCenter() + " but was paired as " + known.name() + " in " + known.dataCenter());
            }
            if (!hello.addresses().isEmpty() && !hello.addresses().equals(known.addresses())) {
                log.info("peer {} now advertises {}", known.name(), hello.addresses());
                addPeer(known.at(hello.addresses()), null);
            }
            return known;
        }
        if (hello.secret() == null) {
            throw new Wire.ProtocolException("not a paired certificate, and no join secret");
        }
        if (!takePending(hello.secret())) {
            throw new Wire.ProtocolException("the join secret is unknown, used or expired");
        }
        if (hello.instance().equals(instance) || links.containsKey(hello.instance())) {
            throw new Wire.ProtocolException(
                    "an instance named " + hello.instance() + " is already this one or a peer");
        }
        Peer peer = new Peer(hello.instance(), hello.dataCenter(), hello.addresses(), fingerprint);
        addPeer(peer, null);
        log.info(
                "paired with {} in {} at {} (certificate {})",
                peer.name(),
                peer.dataCenter(),
                peer.addresses(),
                fingerprint);
        return peer;
    }

    /** Consumes the pending pairing with this secret (compared in constant time); false if none. */
    private synchronized boolean takePending(byte[] secret) {
        long now = clock.millis();
        for (Pending p : pending) {
            if (MessageDigest.isEqual(p.secret(), secret)) {
                pending.remove(p);
                return p.expiresAt() >= now;
            }
        }
        return false;
    }

    private void session(SSLSocket s, DataInputStream in, DataOutputStream out, Peer peer) throws IOException {
        s.setSoTimeout((int) settings.deadAfter().toMillis());
        Inbound stats = inbound.computeIfAbsent(
                peer.name(),
                k -> new Inbound(new PeerGuard(settings, table.settings().maxLdns())));
        Socket previous = stats.socket;
        stats.socket = s;
        if (previous != null) {
            closeQuietly(previous); // one connection per peer: the newest wins
        }
        stats.lastHeartbeat = clock.millis();
        PeerLink link = links.get(peer.name());
        if (link != null) {
            link.wake(); // the path works now: our own connection to it need not wait out its backoff
        }
        Thread beats = Thread.ofVirtual().start(() -> heartbeats(s, out));
        try {
            while (running) {
                apply(peer, Wire.read(in), stats);
            }
        } finally {
            beats.interrupt();
        }
    }

    private void apply(Peer peer, Wire.Frame f, Inbound stats) throws IOException {
        long now = clock.millis();
        if (f.type() == Wire.Type.HEARTBEAT) {
            stats.peerSentAt = Wire.reader(f.body()).readLong();
            stats.lastHeartbeat = now;
            return;
        }
        PeerGuard guard = stats.guard;
        for (Item it : Item.decode(f.type(), f.body(), peer)) {
            stats.items.incrementAndGet();
            received.increment();
            if (!guard.admit()) {
                dropped.increment();
                continue;
            }
            if (it.expired(now)) {
                continue; // dropped on receipt
            }
            switch (it) {
                case Item.PathItem p -> {
                    // One writer per path: the peer's own data center (stamped from the pairing), never ours.
                    if (!p.path().dataCenter().equals(me.dataCenter())) {
                        if (table.get(p.ldns()) == null && !guard.mayCreate(now)) {
                            dropped.increment();
                        } else {
                            Path path = guard.clamp(p.path(), now);
                            if (path != p.path()) {
                                clamped.increment();
                            }
                            table.recordPath(p.ldns(), path);
                        }
                    }
                }
                case Item.HealthItem h -> {
                    if (!health.targets().contains(h.server())) {
                        dropped.increment(); // not a server of this deployment: no entry for it
                    } else if (h.state() != HealthState.UNKNOWN) {
                        long at = guard.clamp(h.at(), now);
                        if (at != h.at()) {
                            clamped.increment();
                        }
                        long ttl = Math.min(h.ttlMillis(), settings.healthTtl().toMillis());
                        peerHealth.put(h.server(), new PeerView(h.state(), at + ttl));
                    }
                }
                case Item.ProbeItem r -> scheduler.request(r.ldns().address(), r.ldns()); // never forwarded again
            }
        }
    }

    private void heartbeats(Socket s, DataOutputStream out) {
        try {
            while (!s.isClosed()) {
                synchronized (out) {
                    Wire.heartbeat(out, clock.millis());
                }
                Thread.sleep(settings.heartbeat());
            }
        } catch (IOException | InterruptedException e) {
            // the connection is over
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    // ---- pairing and listing ----

    /**
     * A join token for another instance: this instance's name, data center, addresses
     * ({@code advertise}, or the configured ones), certificate fingerprint, and a one-time secret
     * that expires. Refused when an address is a wildcard, which no peer can dial.
     */
    public Pairing pair(List<InetSocketAddress> advertise) {
        List<InetSocketAddress> addresses = advertise == null || advertise.isEmpty() ? me.addresses() : advertise;
        List<String> warnings = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            if (a.getAddress().isAnyLocalAddress()) {
                throw new IllegalArgumentException(
                        "sync listens on " + PeersFile.format(a) + ", which no peer can dial: "
                                + "set sync.advertise to this instance's address on each ISP link, or pass --advertise ADDR");
            }
            if (a.getAddress().isLoopbackAddress()) {
                warnings.add(
                        PeersFile.format(a) + " is a loopback address: only an instance on this same host can use it"
                                + " (set sync.advertise or --advertise for another host)");
            }
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no sync address to advertise: set sync.listen and sync.advertise");
        }
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        long expires = clock.millis() + settings.joinTokenTtl().toMillis();
        synchronized (this) {
            pendingPairing(); // drops the expired ones
            if (pending.size() >= MAX_PENDING_PAIRINGS) {
                pending.removeFirst();
            }
            pending.add(new Pending(secret, expires));
        }
        String payload = String.join(
                "|",
                "v2",
                me.instance(),
                me.dataCenter(),
                String.join(",", addresses.stream().map(PeersFile::format).toList()),
                identity.fingerprint(),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
                Long.toString(expires));
        return new Pairing(
                Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8)),
                Instant.ofEpochMilli(expires),
                warnings);
    }

    /**
     * Joins the instance that made {@code token}: dials it, proves the secret, pins each other.
     * Returns the peer's name only after the first authenticated connection; otherwise throws with
     * the reason (expired token, unreachable, refused certificate).
     */
    public String join(String token) throws IOException {
        String bad = "not a join token (copy the whole token printed by `gslb peer pair`)";
        String[] f;
        try {
            f = new String(Base64.getUrlDecoder().decode(token.strip()), StandardCharsets.UTF_8).split("\\|");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(bad);
        }
        if (f.length == 5 && f[0].equals("v1")) {
            throw new IllegalArgumentException(
                    "this token is from an older gslb (shared-key sync); upgrade that instance");
        }
        if (f.length != 7 || !f[0].equals("v2")) {
            throw new IllegalArgumentException(bad);
        }
        if (f[1].equals(me.instance())) {
            throw new IllegalArgumentException("this token was made by this instance; run the join on the other one");
        }
        long expires;
        byte[] secret;
        List<InetSocketAddress> addresses = new ArrayList<>();
        Peer peer;
        try {
            expires = Long.parseLong(f[6]);
            secret = Base64.getUrlDecoder().decode(f[5]);
            for (String a : f[3].split(",")) {
                addresses.add(PeersFile.parse(a));
            }
            peer = new Peer(f[1], f[2], addresses, f[4]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(bad + ": " + e.getMessage());
        }
        if (secret.length != SECRET_BYTES) {
            throw new IllegalArgumentException(bad);
        }
        if (expires < clock.millis()) {
            throw new IllegalArgumentException("this join token expired at " + Instant.ofEpochMilli(expires)
                    + "; run `gslb peer pair` on " + peer.name() + " again");
        }
        PeerLink link = connect(peer, secret);
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
            }
            link.close();
            throw new IOException("could not join " + peer.name() + " at " + f[3] + ": " + failure);
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
        link.close();
        Inbound in = inbound.remove(name);
        if (in != null && in.socket != null) {
            closeQuietly(in.socket);
        }
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
            Inbound in = inbound.get(p.name());
            long lastBeat = Math.max(l.lastHeard, in == null ? 0 : in.lastHeartbeat);
            out.add(new Status(
                    p.name(),
                    p.dataCenter(),
                    p.addresses().stream().map(PeersFile::format).toList(),
                    l.inUse == null ? null : PeersFile.format(l.inUse),
                    l.state.name().toLowerCase(java.util.Locale.ROOT),
                    lastBeat == 0 ? null : Instant.ofEpochMilli(lastBeat).toString(),
                    l.sent.get(),
                    in == null ? 0 : in.items.get(),
                    l.dropped.get(),
                    l.queued(),
                    in == null || in.peerSentAt == 0 ? null : Math.max(0, in.lastHeartbeat - in.peerSentAt),
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
        servers.forEach(s -> {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        });
        for (Inbound in : inbound.values()) {
            Socket s = in.socket;
            if (s != null) {
                closeQuietly(s);
            }
        }
        threads.forEach(Thread::interrupt);
        deadlines.shutdownNow();
    }
}
