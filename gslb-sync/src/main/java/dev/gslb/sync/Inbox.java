package dev.gslb.sync;

import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadMonitor;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.SitePublisher;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receiving side of peer sync: reads the items an authenticated peer sends and merges them by
 * the rules of design.md. A path has one writer, the instance in its data center (the sender's,
 * stamped from the pairing; never ours); a peer's health view goes to the {@link SitePublisher}
 * with its TTL, and so does its measurement of a link of its own data center (a link, like a
 * path, has one writer: the instance on it); a probe request goes to the local scheduler and is
 * never forwarded. The shared configuration, the runtime states, the DNSSEC keys and persistence
 * entries go to their owners (the runtime states and the keys paced by {@link OfferPacer}). Each
 * peer is held to its {@link PeerGuard} (rate, clock skew, new-LDNS budget).
 */
final class Inbox {
    /** Per-peer receiving side: statistics, and the connection in use. */
    static final class Inbound {
        final AtomicLong items = new AtomicLong();
        final PeerGuard guard;
        volatile long lastHeartbeat;
        volatile long peerSentAt;
        volatile Socket socket;

        Inbound(PeerGuard guard) {
            this.guard = guard;
        }

        /** How late the peer's last heartbeat arrived, or null before the first. */
        Long lagMillis() {
            return peerSentAt == 0 ? null : Math.max(0, lastHeartbeat - peerSentAt);
        }

        /** How far the peer's clock is ahead of ours by its last heartbeat (transit included), or null. */
        Long clockAheadMillis() {
            return peerSentAt == 0 ? null : peerSentAt - lastHeartbeat;
        }
    }

    private final SyncSettings settings;
    private final String dataCenter;
    private final ProximityTable table;
    private final HealthMonitor health;
    private final LinkMonitor links;
    private final ProbeScheduler scheduler;
    private final Clock clock;
    private final Map<String, Inbound> inbound = new ConcurrentHashMap<>();
    private final SitePublisher site;
    private final Counter received;
    private final Counter dropped;
    private final Counter clamped;
    private volatile boolean running = true;
    /** Set once, before the first connection. */
    volatile ConfigExchange config = ConfigExchange.NONE;
    /** Set once, before the first connection. */
    volatile PersistenceExchange persistence = PersistenceExchange.NONE;
    /** Which data center owns each server's load (set once, before the first connection; none: loads are dropped). */
    volatile LoadMonitor loads;
    /** The whole offers (runtime states, keys) on their way from the peers to their owners, by kind. */
    private final Map<OfferKind, OfferChannel> offers = new EnumMap<>(OfferKind.class);

    Inbox(
            SyncSettings settings,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            LinkMonitor links,
            ProbeScheduler scheduler,
            SitePublisher site,
            Clock clock,
            MeterRegistry registry,
            List<OfferChannel> offers) {
        this.site = site;
        this.settings = settings;
        this.dataCenter = dataCenter;
        this.table = table;
        this.health = health;
        this.links = links;
        this.scheduler = scheduler;
        this.clock = clock;
        this.received = Counter.builder("sync_items_received")
                .description("Items received from peers (measurements, states, configuration offers)")
                .register(registry);
        this.dropped = Counter.builder("sync_items_dropped")
                .description("Items from peers dropped: over the peer's rate or new-LDNS cap, about an unknown server,"
                        + " or about a link or a server's load not in the peer's data center")
                .register(registry);
        offers.forEach(c -> this.offers.put(c.kind, c));
        this.clamped = Counter.builder("sync_items_clamped")
                .description("Items from peers whose measurement time was in the future beyond the allowed skew")
                .register(registry);
    }

    /**
     * Reads {@code peer}'s items until the connection ends, answering its heartbeats. One
     * connection per peer: a newer one closes the older. {@code connected} runs once the session
     * is set up.
     */
    void session(Handshake.Channel ch, Peer peer, Runnable connected) throws IOException {
        ch.socket().setSoTimeout((int) settings.deadAfter().toMillis());
        Inbound stats = inbound.computeIfAbsent(
                peer.name(),
                k -> new Inbound(new PeerGuard(settings, table.settings().maxLdns())));
        Socket previous = stats.socket;
        stats.socket = ch.socket();
        if (previous != null) {
            Handshake.closeQuietly(previous);
        }
        stats.lastHeartbeat = clock.millis();
        connected.run();
        Thread beats = Thread.ofVirtual().start(() -> heartbeats(ch.socket(), ch.out()));
        try {
            while (running) {
                apply(peer, Wire.read(ch.in()), stats);
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
        List<Item> items = Item.decode(f.type(), f.body(), peer);
        int admitted = guard.admit(items.size());
        stats.items.addAndGet(items.size());
        received.increment(items.size());
        dropped.increment(items.size() - admitted);
        for (Item it : items.subList(0, admitted)) {
            if (it.expired(now)) {
                continue; // dropped on receipt
            }
            switch (it) {
                case Item.PathItem p -> mergePath(p, guard, now);
                case Item.HealthItem h -> mergeHealth(h, guard, now);
                case Item.LinkItem l -> mergeLink(l, peer, guard, now);
                case Item.LoadItem l -> mergeLoad(l, peer, guard, now);
                case Item.ProbeItem r -> scheduler.request(r.ldns().inetAddress(), r.ldns());
                case Item.ConfigItem c -> config.received(peer.name(), c.offer());
                case Item.OfferItem o -> offers.get(o.kind()).received(peer.name(), o.offer());
                case Item.PersistItem p -> {
                    long at = guard.clamp(p.at(), now);
                    persistence.received(new PersistenceExchange.Persisted(
                            p.wideIp(), p.hi(), p.lo(), p.server(), at + p.ttlMillis()));
                }
            }
        }
    }

    private void mergePath(Item.PathItem p, PeerGuard guard, long now) {
        if (p.path().dataCenter().equals(dataCenter)) {
            return; // our own data center's paths have one writer: us
        }
        Path path = guard.clamp(p.path(), now);
        if (path != p.path()) {
            clamped.increment();
        }
        table.recordPath(p.ldns(), path, () -> guard.mayCreate(now) || refusedNew());
    }

    /** Counts a new LDNS over the peer's budget; false, the answer to whether it may be created. */
    private boolean refusedNew() {
        dropped.increment();
        return false;
    }

    private void mergeHealth(Item.HealthItem h, PeerGuard guard, long now) {
        if (!health.targets().contains(h.server())) {
            dropped.increment(); // not a server of this deployment: no entry for it
            return;
        }
        if (h.state() == HealthState.UNKNOWN) {
            return;
        }
        long at = guard.clamp(h.at(), now);
        if (at != h.at()) {
            clamped.increment();
        }
        long ttl = Math.min(h.ttlMillis(), settings.healthTtl().toMillis());
        site.peerHealth(h.server(), h.state(), at + ttl);
    }

    private void mergeLink(Item.LinkItem l, Peer peer, PeerGuard guard, long now) {
        LinkSpec spec = links.spec(l.link());
        if (spec == null || !spec.dataCenter().equals(peer.dataCenter())) {
            dropped.increment(); // unknown, or not the sender's to measure
            return;
        }
        long at = clampedAt(l, guard, now);
        LinkState state = new LinkState(
                spec.name(),
                l.state(),
                l.inBps(),
                l.outBps(),
                l.overLimit() ? spec.overLimitReason(l.inBps(), l.outBps()) : null,
                at,
                peer.name(),
                l.reason().isEmpty() ? "as measured by " + peer.name() : l.reason());
        site.peerLink(state, expiry(l, at));
    }

    /** A server's load, from the peer of its data center only (like a link, it has one writer). */
    private void mergeLoad(Item.LoadItem l, Peer peer, PeerGuard guard, long now) {
        LoadMonitor m = loads;
        LoadTarget target = m == null ? null : m.target(l.server());
        if (target == null || !target.dataCenter().equals(peer.dataCenter())) {
            dropped.increment(); // unknown, or not the sender's to measure
            return;
        }
        long at = clampedAt(l, guard, now);
        ServerLoad load = l.load();
        if (load.overLimit() && target.limited()) { // worded from the shared limits: a peer's text is not shown
            load = load.withOverLimitReason(target.limits().overLimitReason(target.server(), load));
        }
        site.peerLoad(target.server(), load, expiry(l, at));
    }

    /** The item's measurement time, no later than now plus the allowed skew. */
    private long clampedAt(Item it, PeerGuard guard, long now) {
        long at = guard.clamp(it.at(), now);
        if (at != it.at()) {
            clamped.increment();
        }
        return at;
    }

    /** When a peer's view measured at {@code at} stops counting: its TTL, at most the health TTL. */
    private long expiry(Item it, long at) {
        return at + Math.min(it.ttlMillis(), settings.healthTtl().toMillis());
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

    /** The receiving side of {@code peer}, or null before its first connection. */
    Inbound stats(String peer) {
        return inbound.get(peer);
    }

    /** Ends {@code peer}'s connection and forgets its statistics. */
    void forget(String peer) {
        Inbound in = inbound.remove(peer);
        offers.values().forEach(c -> c.forget(peer));
        if (in != null && in.socket != null) {
            Handshake.closeQuietly(in.socket);
        }
    }

    void close() {
        running = false;
        offers.values().forEach(OfferChannel::close);
        inbound.values().forEach(in -> {
            if (in.socket != null) {
                Handshake.closeQuietly(in.socket);
            }
        });
    }
}
