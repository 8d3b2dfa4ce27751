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
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.crypto.Mac;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance in step with its peers (one per data center): each side sends the paths
 * its own data center measured, its health view of every virtual server, and requests to probe
 * an LDNS it has just met. Received items are merged by the rules of design.md: a path has one
 * writer (the instance in that data center) and the newer measurement wins; a peer's health view
 * only fills "unknown". Nothing here is on the query path except a lock-free lookup.
 */
public final class PeerSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerSync.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration PAIRING_VALID = Duration.ofHours(1);

    /** What `gslb peer list` shows for one peer; no key. */
    public record Status(String name, String dataCenter, List<String> addresses, String inUse, String state,
                         String lastHeartbeat, long itemsSent, long itemsReceived, long dropped, int queued,
                         Long lagMillis) {}

    /** A pairing offer: the token carries this instance's identity, addresses and the new key. */
    public record Pairing(String token, Instant expires) {}

    private record PeerView(HealthState state, long expiresAt) {}

    private record Pending(byte[] key, long expiresAt) {}

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
    private final List<ServerSocket> servers = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Counter refused;
    private final Counter received;
    private volatile Pending pending;
    private volatile boolean running = true;

    /** Per-peer receiving statistics. */
    private static final class Inbound {
        final AtomicLong items = new AtomicLong();
        volatile long lastHeartbeat;
        volatile long peerSentAt;
        volatile Socket socket;
    }

    public PeerSync(SyncSettings settings, String instance, String dataCenter, ProximityTable table,
                    HealthMonitor health, ProbeScheduler scheduler, Clock clock, MeterRegistry registry) {
        this.settings = settings;
        this.instance = instance;
        this.dataCenter = dataCenter;
        this.me = new Hello.Factory(instance, dataCenter, settings.advertise());
        this.table = table;
        this.health = health;
        this.scheduler = scheduler;
        this.clock = clock;
        this.refused = Counter.builder("sync_frames_refused").description(
                "Peer connections or frames refused: no key, tampered, replayed, wrong version").register(registry);
        this.received = Counter.builder("sync_items_received").register(registry);
    }

    public void start() throws IOException {
        for (InetSocketAddress a : settings.listen()) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(a);
            servers.add(s);
            threads.add(Thread.ofVirtual().name("sync-accept").start(() -> accept(s)));
            log.info("peer sync listening on {}", PeersFile.format((InetSocketAddress) s.getLocalSocketAddress()));
        }
        // Advertise what was bound: a configured port 0 becomes the port the kernel gave.
        List<InetSocketAddress> advertised = new ArrayList<>();
        for (InetSocketAddress a : settings.advertise()) {
            int i = settings.listen().indexOf(a);
            advertised.add(a.getPort() == 0 && i >= 0 ? (InetSocketAddress) servers.get(i).getLocalSocketAddress() : a);
        }
        me = new Hello.Factory(instance, dataCenter, advertised);
        for (Peer p : PeersFile.read(settings.peersFile())) {
            connect(p);
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
        return servers.stream().map(s -> (InetSocketAddress) s.getLocalSocketAddress()).toList();
    }

    private Item.HealthItem healthItem(String server, HealthState state) {
        return new Item.HealthItem(server, state, clock.millis(), settings.healthTtl().toMillis());
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

    private synchronized void connect(Peer p) {
        PeerLink old = links.put(p.name(), new PeerLink(p, me, settings, this::snapshot));
        if (old != null) {
            old.close();
        }
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
            for (String server : health.targets()) {
                broadcast(healthItem(server, health.state(server)));
            }
        }
    }

    // ---- the query path's two hooks ----

    /**
     * The local scheduler, decorated: an LDNS this side has just met, that a peer's data center has
     * no fresh path to, is also sent to the peers to measure (at most once per probe TTL).
     */
    public ProbeRequests probeRequests() {
        return ldns -> {
            LdnsEntry e = scheduler.noteQuery(ldns);
            if (links.isEmpty()) {
                return;
            }
            long now = clock.millis();
            long fresh = settings.pathTtl().toMillis() / 2;
            LdnsKey key = null;
            for (PeerLink l : links.values()) {
                Path p = e == null ? null : e.path(l.peer().dataCenter());
                if (p == null || now - p.measuredAt() > fresh) {
                    if (key == null) {
                        key = LdnsKey.of(ldns);
                        if (asked.putIfAbsent(key, now) != null) {
                            return; // asked within the probe TTL already
                        }
                    }
                    l.offer(new Item.ProbeItem(key, now, settings.probeTtl().toMillis()));
                }
            }
        };
    }

    /** A peer's fresh view of a virtual server, or UNKNOWN. */
    public HealthState peerView(String server) {
        PeerView v = peerHealth.get(server);
        return v == null || v.expiresAt() < clock.millis() ? HealthState.UNKNOWN : v.state();
    }

    // ---- receiving ----

    private void accept(ServerSocket server) {
        while (running) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            threads.add(Thread.ofVirtual().name("sync-from-" + s.getRemoteSocketAddress()).start(() -> serve(s)));
        }
    }

    private void serve(Socket s) {
        String who = s.getInetAddress().getHostAddress();
        try (s) {
            s.setSoTimeout((int) settings.deadAfter().toMillis());
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 65536));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Wire.Frame first = Wire.read(in);
            if (first.type() != Wire.Type.HELLO) {
                throw new Wire.AuthException("expected HELLO, got " + first.type());
            }
            Hello hello = Hello.decode(first.body());
            who = hello.instance() + " (" + who + ")";
            Peer peer = authenticate(hello, first);
            byte[] nonce = new byte[16];
            RANDOM.nextBytes(nonce);
            Wire.write(out, Wire.mac(peer.key()), Wire.Type.HELLO_ACK, 0, me.hello(nonce).encode());
            Mac receive = Wire.mac(Wire.sessionKey(peer.key(), hello.nonce(), nonce, true));
            Mac send = Wire.mac(Wire.sessionKey(peer.key(), hello.nonce(), nonce, false));
            Inbound stats = inbound.computeIfAbsent(peer.name(), k -> new Inbound());
            stats.socket = s;
            stats.lastHeartbeat = clock.millis();
            warned.remove(peer.name());
            Thread beats = Thread.ofVirtual().start(() -> heartbeats(s, out, send));
            try {
                for (long expected = 1; running; expected++) {
                    Wire.Frame f = Wire.read(in);
                    Wire.verify(receive, f, expected);
                    apply(peer, f, stats);
                }
            } finally {
                beats.interrupt();
            }
        } catch (Wire.AuthException e) {
            refused.increment();
            if (warned.add(who)) { // once per peer until it succeeds again
                log.warn("peer sync: refused {}: {}", who, e.getMessage());
            }
        } catch (IOException e) {
            log.debug("peer sync: connection from {} ended: {}", who, e.toString());
        }
    }

    /** The key that must have signed this hello: a configured peer's, or a pending pairing's. */
    private Peer authenticate(Hello hello, Wire.Frame frame) throws Wire.AuthException {
        if (hello.version() != Wire.PROTOCOL_VERSION) {
            throw new Wire.AuthException("it speaks sync protocol v" + hello.version() + ", this instance v"
                    + Wire.PROTOCOL_VERSION + "; upgrade one side");
        }
        PeerLink known = links.get(hello.instance());
        if (known != null) {
            Wire.verify(Wire.mac(known.peer().key()), frame, 0);
            Peer peer = known.peer();
            if (!hello.addresses().isEmpty() && !hello.addresses().equals(peer.addresses())) {
                // An authenticated peer that now listens elsewhere (restarted, re-addressed): follow it.
                peer = new Peer(peer.name(), hello.dataCenter(), hello.addresses(), peer.key());
                log.info("peer {} now advertises {}", peer.name(), peer.addresses());
                addPeer(peer);
            }
            return peer;
        }
        Pending p = pending;
        if (p != null && p.expiresAt() > clock.millis()) {
            Wire.verify(Wire.mac(p.key()), frame, 0);
            Peer peer = new Peer(hello.instance(), hello.dataCenter(), hello.addresses(), p.key());
            pending = null;
            addPeer(peer);
            log.info("paired with {} in {} at {}", peer.name(), peer.dataCenter(), peer.addresses());
            return peer;
        }
        throw new Wire.AuthException("not a configured peer, and no pairing is pending");
    }

    private void apply(Peer peer, Wire.Frame f, Inbound stats) throws IOException {
        long now = clock.millis();
        if (f.type() == Wire.Type.HEARTBEAT) {
            DataInputStream in = Wire.reader(f.body());
            stats.peerSentAt = in.readLong();
            stats.lastHeartbeat = now;
            return;
        }
        for (Item it : Item.decode(f.type(), f.body())) {
            stats.items.incrementAndGet();
            received.increment();
            if (it.expired(now)) {
                continue; // dropped on receipt
            }
            switch (it) {
                case Item.PathItem p -> {
                    // One writer per path: only the instance in that data center, never about ours.
                    if (p.path().dataCenter().equals(peer.dataCenter()) && !p.path().dataCenter().equals(me.dataCenter())) {
                        table.recordPath(p.ldns(), p.path());
                    }
                }
                case Item.HealthItem h -> {
                    if (h.state() != HealthState.UNKNOWN) {
                        peerHealth.put(h.server(), new PeerView(h.state(), h.at() + h.ttlMillis()));
                    }
                }
                case Item.ProbeItem r -> scheduler.request(r.ldns().address(), r.ldns()); // never forwarded again
            }
        }
    }

    private void heartbeats(Socket s, DataOutputStream out, Mac send) {
        try {
            for (long seq = 1; !s.isClosed(); seq++) {
                Wire.heartbeat(out, send, seq, clock.millis());
                Thread.sleep(settings.heartbeat());
            }
        } catch (IOException | InterruptedException e) {
            // the connection is over
        }
    }

    // ---- pairing and listing ----

    /** Creates the pair's key; the token is what the other instance's `gslb peer join` takes. */
    public Pairing pair() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        long expires = clock.millis() + PAIRING_VALID.toMillis();
        pending = new Pending(key, expires);
        String payload = String.join("|", "v1", me.instance(), me.dataCenter(),
                String.join(",", me.addresses().stream().map(PeersFile::format).toList()),
                Base64.getEncoder().encodeToString(key));
        return new Pairing(Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8)),
                Instant.ofEpochMilli(expires));
    }

    /** Adds the peer a pairing token describes and connects to it; returns its name. */
    public String join(String token) throws IOException {
        String[] f;
        try {
            f = new String(Base64.getUrlDecoder().decode(token.strip()), StandardCharsets.UTF_8).split("\\|");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a pairing token (copy the whole command printed by `gslb peer pair`)");
        }
        if (f.length != 5 || !f[0].equals("v1")) {
            throw new IllegalArgumentException("not a pairing token (copy the whole command printed by `gslb peer pair`)");
        }
        if (f[1].equals(me.instance())) {
            throw new IllegalArgumentException("this token was made by this instance; run the join on the other one");
        }
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String a : f[3].split(",")) {
            addresses.add(PeersFile.parse(a));
        }
        addPeer(new Peer(f[1], f[2], addresses, Base64.getDecoder().decode(f[4])));
        return f[1];
    }

    private synchronized void addPeer(Peer peer) {
        List<Peer> peers = new ArrayList<>(links.values().stream().map(PeerLink::peer).filter(p -> !p.equals(peer)).toList());
        peers.add(peer);
        save(peers);
        connect(peer);
    }

    /** Forgets a peer and its key here; run it on both sides to dissolve a pair. */
    public synchronized boolean remove(String name) {
        PeerLink link = links.remove(name);
        if (link == null) {
            return false;
        }
        link.close();
        Inbound in = inbound.remove(name);
        if (in != null && in.socket != null) {
            try {
                in.socket.close();
            } catch (IOException ignored) {
                // closing
            }
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
        long now = clock.millis();
        List<Status> out = new ArrayList<>();
        for (PeerLink l : links.values()) {
            Peer p = l.peer();
            Inbound in = inbound.get(p.name());
            long lastBeat = Math.max(l.lastHeard, in == null ? 0 : in.lastHeartbeat);
            out.add(new Status(p.name(), p.dataCenter(), p.addresses().stream().map(PeersFile::format).toList(),
                    l.inUse == null ? null : PeersFile.format(l.inUse), l.state.name().toLowerCase(),
                    lastBeat == 0 ? null : Instant.ofEpochMilli(lastBeat).toString(), l.sent.get(),
                    in == null ? 0 : in.items.get(), l.dropped.get(), l.queued(),
                    in == null || in.peerSentAt == 0 ? null : Math.max(0, in.lastHeartbeat - in.peerSentAt)));
        }
        return out;
    }

    /** Bytes this side has written to its peers (for the bytes-per-update figure). */
    public long bytesSent() {
        return links.values().stream().mapToLong(l -> l.bytes.get()).sum();
    }

    @Override
    public void close() {
        running = false;
        links.values().forEach(PeerLink::close);
        for (ServerSocket s : servers) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
        for (Inbound in : inbound.values()) {
            Socket s = in.socket;
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
        threads.forEach(Thread::interrupt);
    }
}
