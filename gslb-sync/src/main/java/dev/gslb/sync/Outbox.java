package dev.gslb.sync;

import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadMonitor;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import dev.gslb.site.ServerLoad;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The sending side of peer sync, the mirror of {@link Inbox}: what this instance tells its peers.
 * The paths its own data center measures, its monitors' view of every virtual server and its own
 * links' and servers' load measurements go out as they change and again every heartbeat (so
 * views stay fresh);
 * a (re)connected peer first gets all of it ({@link #snapshot}), with the shared configuration,
 * the runtime states, the DNSSEC keys and the live persistence entries.
 */
final class Outbox {
    private final SyncSettings settings;
    private final String dataCenter;
    private final ProximityTable table;
    private final HealthMonitor health;
    private final LinkMonitor ispLinks;
    private final Clock clock;
    private final Supplier<Collection<PeerLink>> links;
    /** Set once, before the first connection. */
    volatile ConfigExchange config = ConfigExchange.NONE;
    /** Set once, before the first connection. */
    volatile PersistenceExchange persistence = PersistenceExchange.NONE;
    /** The whole offers (runtime states, keys), in the order a snapshot carries them. */
    private final List<OfferChannel> offers;
    /** The loads of this data center's servers, measured here; set once before {@link #start}, or none. */
    volatile LoadMonitor loads;

    Outbox(
            SyncSettings settings,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            LinkMonitor ispLinks,
            Clock clock,
            Supplier<Collection<PeerLink>> links,
            List<OfferChannel> offers) {
        this.settings = settings;
        this.dataCenter = dataCenter;
        this.table = table;
        this.health = health;
        this.ispLinks = ispLinks;
        this.clock = clock;
        this.links = links;
        this.offers = offers;
    }

    /** From now on, what changes here goes out. */
    void start() {
        table.onPathRecorded((key, path) -> {
            if (path.dataCenter().equals(dataCenter)) {
                broadcast(new Item.PathItem(key, path, settings.pathTtl().toMillis()));
            }
        });
        health.onChange((server, state) -> broadcast(healthItem(server, state)));
        ispLinks.onChange(state -> broadcast(linkItem(state)));
        if (loads != null) {
            loads.onChange((server, load) -> broadcast(loadItem(server, load)));
        }
    }

    /** Every heartbeat: health and links again, so the peers' views do not expire, and which configuration is served. */
    void refresh() {
        for (String server : health.targets()) {
            broadcast(healthItem(server, health.state(server)));
        }
        forEachLocalLink(this::broadcast);
        forEachLocalLoad(this::broadcast);
        config(true);
    }

    /** The shared configuration: its content, or only which generation this side serves ({@code stateOnly}). */
    void config(boolean stateOnly) {
        ConfigExchange.Offer o = stateOnly ? config.state() : config.current();
        if (o != null) {
            broadcast(new Item.ConfigItem(o, clock.millis()));
        }
    }

    /** This instance's offer of one kind, all of it (each offer replaces the last at the peers). */
    void offer(OfferChannel channel) {
        Item.OfferItem o = channel.current();
        if (o != null) {
            broadcast(o);
        }
    }

    /** A persistence entry made here, while it lives. */
    void persisted(PersistenceExchange.Persisted p) {
        long now = clock.millis();
        if (p.expiresAt() > now) {
            broadcast(new Item.PersistItem(p.wideIp(), p.hi(), p.lo(), p.server(), now, p.expiresAt() - now));
        }
    }

    /**
     * Everything a (re)connected peer should have: this side's fresh paths, its health view, its
     * links, its configuration, its runtime states, its keys and its live persistence entries.
     */
    void snapshot(Consumer<Item> out) {
        long ttl = settings.pathTtl().toMillis();
        table.forEachPath(dataCenter, (k, p) -> out.accept(new Item.PathItem(k, p, ttl)));
        for (String server : health.targets()) {
            out.accept(healthItem(server, health.state(server)));
        }
        forEachLocalLink(out);
        forEachLocalLoad(out);
        ConfigExchange.Offer o = config.current();
        if (o != null) {
            out.accept(new Item.ConfigItem(o, clock.millis()));
        }
        for (OfferChannel c : offers) { // after the configuration, whose objects the runtime states name
            Item.OfferItem offer = c.current();
            if (offer != null) {
                out.accept(offer);
            }
        }
        long now = clock.millis();
        persistence.forEachLive(p ->
                out.accept(new Item.PersistItem(p.wideIp(), p.hi(), p.lo(), p.server(), now, p.expiresAt() - now)));
    }

    private void broadcast(Item item) {
        for (PeerLink l : links.get()) {
            l.offer(item);
        }
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

    private Item.LoadItem loadItem(String server, ServerLoad l) {
        long at = l.measuredAt() == 0 ? clock.millis() : l.measuredAt();
        return new Item.LoadItem(server, l, at, settings.healthTtl().toMillis());
    }

    /** This instance's measurements of its own data center's servers' load. */
    private void forEachLocalLoad(Consumer<Item> out) {
        LoadMonitor m = loads;
        if (m == null) {
            return;
        }
        for (String server : m.polled()) {
            ServerLoad l = m.local(server);
            if (l != null) {
                out.accept(loadItem(server, l));
            }
        }
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
}
