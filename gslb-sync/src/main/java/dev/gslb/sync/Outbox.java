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
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending side of peer sync, the mirror of {@link Inbox}: what this instance tells its peers.
 * The paths its own data center measures, its monitors' view of every virtual server and its own
 * links' and servers' load measurements go out as they change and again every heartbeat (so
 * views stay fresh);
 * a (re)connected peer first gets all of it ({@link #snapshot}), with the shared configuration,
 * the runtime states and the live persistence entries.
 */
final class Outbox {
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);
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
    /** Set once, before the first connection. */
    volatile RuntimeStateExchange runtime = RuntimeStateExchange.NONE;
    /** The loads of this data center's servers, measured here; set once before {@link #start}, or none. */
    volatile LoadMonitor loads;

    private final LoggedOnce logged = new LoggedOnce();

    Outbox(
            SyncSettings settings,
            String dataCenter,
            ProximityTable table,
            HealthMonitor health,
            LinkMonitor ispLinks,
            Clock clock,
            Supplier<Collection<PeerLink>> links) {
        this.settings = settings;
        this.dataCenter = dataCenter;
        this.table = table;
        this.health = health;
        this.ispLinks = ispLinks;
        this.clock = clock;
        this.links = links;
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
        ConfigExchange.Offer o = config.current();
        if (o != null) {
            broadcast(new Item.ConfigItem(stateOnly ? o.stateOnly() : o, clock.millis()));
        }
    }

    /** This instance's runtime states, all of them (each offer replaces the last at the peers). */
    void runtimeStates() {
        Item.RuntimeItem r = runtimeItem();
        if (r != null) {
            broadcast(r);
        }
    }

    /**
     * What the runtime states' owner serves now as an item, or null: none, or more than the wire
     * carries (a peer would close the connection at it; logged once instead).
     */
    private Item.RuntimeItem runtimeItem() {
        RuntimeStateExchange.Offer o = runtime.current();
        if (o == null) {
            return null;
        }
        int origin = o.origin().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (o.states().length > Wire.MAX_RUNTIME_STATES || origin > Hello.MAX_NAME) {
            if (logged.first("runtime " + o.generation())) {
                log.warn(
                        "runtime states generation {} not sent to peers: {} bytes from {} (at most {} from a name of"
                                + " at most {})",
                        o.generation(),
                        o.states().length,
                        o.origin(),
                        Wire.MAX_RUNTIME_STATES,
                        Hello.MAX_NAME);
            }
            return null;
        }
        return new Item.RuntimeItem(o);
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
     * links, its configuration, its runtime states and its live persistence entries.
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
        Item.RuntimeItem r = runtimeItem(); // after the configuration, whose objects the states name
        if (r != null) {
            out.accept(r);
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
