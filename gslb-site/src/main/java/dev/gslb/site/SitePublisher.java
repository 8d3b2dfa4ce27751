package dev.gslb.site;

import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The one place that decides whether a virtual server may be answered. It hears every monitor,
 * link and peer event, applies the availability rules once, and publishes a new {@link SiteState}
 * with one volatile write; the query path reads that state and never calls back here.
 *
 * <p>The rules (docs/operator-guide.md "Check the virtual servers", "Manage ISP links"):
 *
 * <ul>
 *   <li>health: this instance's monitors decide; where they say UNKNOWN, a peer's fresh view fills
 *       in (a peer never overrides a local UP or DOWN);
 *   <li>UP answers, DOWN does not; UNKNOWN answers when {@code unknown-health} says so;
 *   <li>a server waiting for manual resume is not answered, whatever its health says
 *       (docs/operator-guide.md "Bring a server back after a failure");
 *   <li>a server is not answered while a server it depends on ({@code depends-on:}, {@link
 *       Dependencies}) is unavailable or disabled, whatever its own health says; servers are
 *       decided in dependency order, so a chain follows its first link in one publication;
 *   <li>a link DOWN takes its servers with it;
 *   <li>a link over its limit sets its servers aside (answered only when nothing else is left);
 *   <li>a server over one of its own limits (connections, traffic, packets, CPU) is set aside the
 *       same way; its load is this instance's measurement when its data center is this one's,
 *       else the fresh one of the peer in its data center;
 *   <li>runtime states: a server takes the strictest of its own, its data center's and its link's
 *       (disabled: never; drained: only where persistence already sends a network); a state set
 *       for a while ends by itself (the expiry timer publishes again then);
 *   <li>a link: this instance's measurement for a link of its data center, else the fresh one of
 *       the peer on it; headroom is its capacity minus the busier direction's traffic.
 * </ul>
 *
 * <p>Writers take this object's lock; readers never do. A peer's view counts until its expiry:
 * a timer publishes again when the earliest one passes. A publication costs work in the number of
 * servers, so what peers send publishes at most every {@value #PEER_PUBLISH_MILLIS} ms (the
 * first at once, the rest together at the end of the interval): a peer flipping views as fast as
 * its item rate allows costs this instance at most that many publications, not one per item.
 */
public final class SitePublisher implements AutoCloseable {
    private record Expiring<T>(T value, long expiresAt) {}

    static final long PEER_PUBLISH_MILLIS = 10;
    static final String WAITING_FOR_RESUME = "down, waiting for manual resume";
    private static final long PEER_PUBLISH_NANOS = TimeUnit.MILLISECONDS.toNanos(PEER_PUBLISH_MILLIS);

    private final boolean unknownIsAvailable;
    private final Clock clock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "site-expiry");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, HealthState> localHealth = new HashMap<>();
    private final Map<String, Expiring<HealthState>> peerHealth = new HashMap<>();
    private final Map<String, LinkState> localLinks = new HashMap<>();
    private final Map<String, Expiring<LinkState>> peerLinks = new HashMap<>();
    private final Map<String, ServerLoad> localLoad = new HashMap<>();
    private final Map<String, Expiring<ServerLoad>> peerLoad = new HashMap<>();
    private final Set<String> waitingForResume = new HashSet<>();
    private Site site;
    private RuntimeStates runtime = RuntimeStates.NONE;
    private ScheduledFuture<?> expiry;
    private long expiryAt = Long.MAX_VALUE;
    private volatile SiteState state;
    private long peerPublishedNanos = System.nanoTime() - PEER_PUBLISH_NANOS;
    private boolean peerPending;
    /** The timer holds one publishPending task: a second one, armed while the first waits for the lock, would publish twice an interval. */
    private boolean peerTimerArmed;

    private long publications;

    public SitePublisher(Site site, boolean unknownIsAvailable, Clock clock) {
        this.site = site;
        this.unknownIsAvailable = unknownIsAvailable;
        this.clock = clock;
        publish();
    }

    /** The state in service: one volatile read, for the query path. */
    public SiteState state() {
        return state;
    }

    /** This instance's monitors judged {@code server}. */
    public synchronized void localHealth(String server, HealthState s) {
        if (localHealth.put(server, s) != s) {
            publish();
        }
    }

    /** {@code server} starts or ends waiting for the operator's resume (its monitors hold it DOWN meanwhile). */
    public synchronized void waitingForResume(String server, boolean waiting) {
        if (waiting ? waitingForResume.add(server) : waitingForResume.remove(server)) {
            publish();
        }
    }

    /** A peer's view of {@code server}, fresh until {@code expiresAt} (this clock's millis). UNKNOWN is no view. */
    public synchronized void peerHealth(String server, HealthState s, long expiresAt) {
        if (s == HealthState.UNKNOWN) {
            return;
        }
        Expiring<HealthState> old = peerHealth.put(server, new Expiring<>(s, expiresAt));
        if (old == null || old.value() != s || old.expiresAt() < clock.millis()) {
            publishForPeer(); // a refreshed view changes nothing the query path reads
        } else if (expiresAt < expiryAt) {
            scheduleExpiry(expiresAt);
        }
    }

    /** What operators set at run time (here or on a peer): applied to every server it names or contains. */
    public synchronized void runtime(RuntimeStates r) {
        runtime = r;
        publish();
    }

    /**
     * This instance measured the load of {@code server} (a server of its data center); one never
     * measured ({@code measuredAt} 0: it stopped polling it) leaves the server to its peers' views.
     */
    public synchronized void localLoad(String server, ServerLoad load) {
        boolean changed =
                load.measuredAt() == 0 ? localLoad.remove(server) != null : !load.equals(localLoad.put(server, load));
        if (changed) {
            publish();
        }
    }

    /** The peer in {@code server}'s data center measured its load; fresh until {@code expiresAt}. */
    public synchronized void peerLoad(String server, ServerLoad load, long expiresAt) {
        Expiring<ServerLoad> old = peerLoad.put(server, new Expiring<>(load, expiresAt));
        if (old == null || !old.value().equals(load) || old.expiresAt() < clock.millis()) {
            publishForPeer();
        } else if (expiresAt < expiryAt) {
            scheduleExpiry(expiresAt);
        }
    }

    /** This instance measured a link of its data center. */
    public synchronized void localLink(LinkState s) {
        localLinks.put(s.name(), s);
        publish();
    }

    /** The peer on a link measured it; fresh until {@code expiresAt}. */
    public synchronized void peerLink(LinkState s, long expiresAt) {
        peerLinks.put(s.name(), new Expiring<>(s, expiresAt));
        publishForPeer();
    }

    /**
     * A new configuration's site: its states are decided from the monitors' current views
     * ({@code health}, {@code links}: null where there is none), the peers' views kept.
     */
    public synchronized void resite(
            Site next, Function<String, HealthState> health, Function<String, LinkState> links) {
        this.site = next;
        localHealth.clear();
        localLinks.clear();
        localLoad
                .keySet()
                .retainAll(next.servers().stream().map(VirtualServer::name).toList());
        for (VirtualServer vs : next.servers()) {
            HealthState h = health.apply(vs.name());
            if (h != null) {
                localHealth.put(vs.name(), h);
            }
        }
        for (Link l : next.links()) {
            LinkState s = links.apply(l.name());
            if (s != null) {
                localLinks.put(l.name(), s);
            }
        }
        publish();
    }

    /** At once when the last publication for a peer is an interval old, else once at the end of it. */
    private void publishForPeer() {
        long since = System.nanoTime() - peerPublishedNanos;
        if (since >= PEER_PUBLISH_NANOS) {
            peerPublishedNanos = System.nanoTime();
            publish();
        } else {
            peerPending = true;
            armPeerTimer(PEER_PUBLISH_NANOS - since);
        }
    }

    private void armPeerTimer(long delayNanos) {
        if (!peerTimerArmed && !timer.isShutdown()) {
            peerTimerArmed = true;
            schedule(this::publishPending, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** The end of an interval: what peers sent meanwhile, unless a publication came sooner (then at the end of its interval). */
    private synchronized void publishPending() {
        peerTimerArmed = false;
        if (!peerPending) {
            return;
        }
        long since = System.nanoTime() - peerPublishedNanos;
        if (since >= PEER_PUBLISH_NANOS) {
            peerPublishedNanos = System.nanoTime();
            publish();
        } else {
            armPeerTimer(PEER_PUBLISH_NANOS - since);
        }
    }

    /** How many states were published (the bound on peers' publications is tested by it). */
    synchronized long publications() {
        return publications;
    }

    private void publish() {
        peerPending = false; // whatever was pending is in this one
        publications++;
        long now = clock.millis();
        peerHealth.values().removeIf(v -> v.expiresAt() < now);
        peerLinks.values().removeIf(v -> v.expiresAt() < now);
        peerLoad.values().removeIf(v -> v.expiresAt() < now);
        Map<String, LinkState> links = new HashMap<>();
        for (Link l : site.links()) {
            LinkState s = localLinks.get(l.name());
            if (s == null && peerLinks.containsKey(l.name())) {
                s = peerLinks.get(l.name()).value();
            }
            if (s != null) {
                links.put(l.name(), s);
            }
        }
        Map<String, HealthState> merged = new HashMap<>();
        Map<String, HealthState> peers = new HashMap<>();
        peerHealth.forEach((server, v) -> peers.put(server, v.value()));
        int n = site.servers().size();
        ServerState[] servers = new ServerState[n];
        // of each server decided so far that cannot serve its dependents: the server at the root of
        // that (itself, or one it depends on) and, for a root, why; -1 for a server that can
        int[] root = new int[n];
        String[] why = new String[n];
        for (int o : site.dependencies().order()) { // a server after those it depends on
            VirtualServer vs = site.servers().get(o);
            HealthState local = localHealth.getOrDefault(vs.name(), HealthState.UNKNOWN);
            HealthState h = local != HealthState.UNKNOWN ? local : peers.getOrDefault(vs.name(), HealthState.UNKNOWN);
            merged.put(vs.name(), h);
            RuntimeState set = runtime.on(vs, now);
            LinkState link = vs.link() == null ? null : links.get(vs.link());
            int blocker = -1;
            for (int d : site.dependencies().of(o)) {
                if (root[d] >= 0) {
                    blocker = d;
                    break;
                }
            }
            String dependencyDown = blocker < 0 ? null : dependencyDown(blocker, root[blocker], why);
            ServerState st = decide(vs, h, link, set, load(vs), dependencyDown);
            servers[o] = st;
            if (st.available() && st.admin() != AdminState.DISABLED) {
                root[o] = -1;
            } else if (dependencyDown != null && dependencyDown.equals(st.heldReason())) {
                root[o] = root[blocker]; // the text names the root, not the whole chain: bounded however long it is
            } else {
                root[o] = o;
                why[o] = unusable(st, vs, link);
            }
        }
        state = new SiteState(site, servers, unknown(), merged, peers, links).withRuntime(runtime, now);
        long next = runtime.nextEnd(now); // a state set --for a while ends by itself
        for (Expiring<?> v : peerHealth.values()) {
            next = Math.min(next, v.expiresAt());
        }
        for (Expiring<?> v : peerLinks.values()) {
            next = Math.min(next, v.expiresAt());
        }
        for (Expiring<?> v : peerLoad.values()) {
            next = Math.min(next, v.expiresAt());
        }
        expiryAt = Long.MAX_VALUE;
        scheduleExpiry(next);
    }

    private ServerState unknown() {
        return unknownIsAvailable ? ServerState.UNKNOWN_AVAILABLE : ServerState.UNKNOWN_UNAVAILABLE;
    }

    /** This instance's measurement of a server's load, else a peer's fresh one, else unknown. */
    private ServerLoad load(VirtualServer vs) {
        ServerLoad own = localLoad.get(vs.name());
        if (own != null) {
            return own;
        }
        Expiring<ServerLoad> peer = peerLoad.get(vs.name());
        return peer == null ? ServerLoad.UNKNOWN : peer.value();
    }

    /**
     * Every availability rule, in one place; {@code dependencyDown} says why a server it depends on
     * cannot serve it, or is null.
     */
    private ServerState decide(
            VirtualServer vs, HealthState h, LinkState link, RuntimeState set, ServerLoad load, String dependencyDown) {
        boolean available = h == HealthState.UP || h == HealthState.UNKNOWN && unknownIsAvailable;
        if (link != null && link.state() == HealthState.DOWN) {
            available = false; // a link DOWN takes its servers with it
        }
        String held = waitingForResume.contains(vs.name()) ? WAITING_FOR_RESUME : dependencyDown;
        if (held != null) {
            available = false; // what an operator holds back, no measurement brings back
        }
        String spill = available && link != null ? link.overLimitReason() : null;
        if (spill == null && available) {
            spill = load.overLimitReason(); // a server past its own limit spills as a full link does
        }
        long headroom = -1;
        Link l = vs.link() == null ? null : site.link(vs.link());
        if (l != null && l.capacityBps() >= 0 && link != null && link.inBps() >= 0 && link.outBps() >= 0) {
            headroom = Math.max(0, l.capacityBps() - Math.max(link.inBps(), link.outBps()));
        }
        return new ServerState(
                h, available, spill, headroom, held, set == null ? AdminState.ENABLED : set.state(), set, load);
    }

    /**
     * "depends on app, which depends on db, which is down": the server depended on ({@code d})
     * and, when it is not the root of the trouble, the root {@code r}.
     */
    private String dependencyDown(int d, int r, String[] why) {
        String name = site.servers().get(d).name();
        return r == d
                ? "depends on " + name + ", which " + why[d]
                : "depends on " + name + ", which depends on "
                        + site.servers().get(r).name() + ", which " + why[r];
    }

    /**
     * Why a server cannot serve those that depend on it (F5: a dependent is down while its
     * dependency is unavailable for any reason). Disabled counts; drained and over a limit do not
     * reach here: such a server still serves.
     */
    private static String unusable(ServerState s, VirtualServer vs, LinkState link) {
        if (s.heldReason() != null) {
            return "is " + s.heldReason();
        }
        if (link != null && link.state() == HealthState.DOWN) {
            return "is unavailable: its link " + vs.link() + " is down";
        }
        if (s.health() == HealthState.DOWN) {
            return "is down";
        }
        return s.available() ? "is " + s.admin().word() : "is not checked yet";
    }

    private void scheduleExpiry(long at) {
        if (at == Long.MAX_VALUE || at >= expiryAt || timer.isShutdown()) {
            return;
        }
        if (expiry != null) {
            expiry.cancel(false);
        }
        expiryAt = at;
        long delay = Math.max(0, at - clock.millis()) + 1;
        expiry = schedule(this::expire, delay, TimeUnit.MILLISECONDS);
    }

    /** On the timer, unless it was closed meanwhile (an event racing close: nothing is published any more). */
    private ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        try {
            return timer.schedule(task, delay, unit);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            return null;
        }
    }

    private synchronized void expire() {
        expiry = null;
        expiryAt = Long.MAX_VALUE;
        publish();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
