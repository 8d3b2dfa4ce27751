package dev.gslb.site;

import java.util.List;
import java.util.Map;

/**
 * The published state of every virtual server and link of one {@link Site}: an immutable array
 * indexed by ordinal, replaced whole by {@link SitePublisher} with one volatile write. The query
 * path reads {@link #at} and nothing else: no lock, no map, no allocation.
 */
public final class SiteState {
    /** Nothing known and unknown health answered: every server available (configuration checks, tests). */
    public static final SiteState ALL_AVAILABLE =
            new SiteState(Site.EMPTY, new ServerState[0], ServerState.UNKNOWN_AVAILABLE, Map.of(), Map.of(), Map.of());

    private RuntimeStates runtime = RuntimeStates.NONE;
    private Map<String, RuntimeState> pools = Map.of();
    private Map<String, Map<String, RuntimeState>> members = Map.of();
    private Map<String, RuntimeState> wideIps = Map.of();

    private final Site site;
    private final ServerState[] servers;
    private final ServerState unknown;
    private final Map<String, HealthState> peerHealth;
    private final Map<String, LinkState> links;
    private final Map<String, HealthState> health;

    SiteState(
            Site site,
            ServerState[] servers,
            ServerState unknown,
            Map<String, HealthState> health,
            Map<String, HealthState> peerHealth,
            Map<String, LinkState> links) {
        this.site = site;
        this.servers = servers;
        this.unknown = unknown;
        this.health = Map.copyOf(health);
        this.peerHealth = Map.copyOf(peerHealth);
        this.links = Map.copyOf(links);
    }

    /**
     * The state of {@code vs}. A server of another configuration (a query that started before a
     * reload, a test's own server) gets the state of an unknown server unless it is equal to the
     * one at its ordinal.
     */
    public ServerState at(VirtualServer vs) {
        int o = vs.ordinal();
        if (o >= 0 && o < servers.length) {
            VirtualServer s = site.servers().get(o);
            if (s == vs || s.equals(vs)) {
                return servers[o];
            }
        }
        return unknown;
    }

    /** With the runtime states {@code r} as in force at {@code now}: indexed once here, read per query. */
    SiteState withRuntime(RuntimeStates r, long now) {
        runtime = r;
        pools = Map.copyOf(r.live(RuntimeTarget.Kind.POOL, now));
        wideIps = Map.copyOf(r.live(RuntimeTarget.Kind.WIDEIP, now));
        Map<String, Map<String, RuntimeState>> byPool = new java.util.HashMap<>();
        r.live(RuntimeTarget.Kind.MEMBER, now).forEach((name, s) -> {
            int slash = name.indexOf('/');
            if (slash > 0) {
                byPool.computeIfAbsent(name.substring(0, slash), k -> new java.util.HashMap<>())
                        .put(name.substring(slash + 1), s);
            }
        });
        byPool.replaceAll((k, v) -> Map.copyOf(v));
        members = Map.copyOf(byPool);
        return this;
    }

    /** The runtime states this state was published with (all of them, for the admin API). */
    public RuntimeStates runtime() {
        return runtime;
    }

    /** The runtime state of pool {@code pool} in force, or null (enabled). */
    public RuntimeState pool(String pool) {
        return pools.get(pool);
    }

    /** The runtime state of {@code server} as a member of {@code pool} in force, or null (enabled). */
    public RuntimeState member(String pool, String server) {
        Map<String, RuntimeState> m = members.get(pool);
        return m == null ? null : m.get(server);
    }

    /** The wide IPs' runtime states in force, by lower-case name with its final dot. */
    public Map<String, RuntimeState> wideIps() {
        return wideIps;
    }

    public Site site() {
        return site;
    }

    /** Merged health of the server named {@code server} (UNKNOWN when not known); for the admin API and gauges. */
    public HealthState health(String server) {
        return health.getOrDefault(server, HealthState.UNKNOWN);
    }

    /** A peer's fresh view of {@code server}, or UNKNOWN. */
    public HealthState peerHealth(String server) {
        return peerHealth.getOrDefault(server, HealthState.UNKNOWN);
    }

    /** A link as answered by: this instance's measurement, else a peer's fresh one; null when none. */
    public LinkState link(String name) {
        return links.get(name);
    }

    /** Every configured link as answered by, UNKNOWN where nobody measured it lately. */
    public List<LinkState> links() {
        return site.links().stream()
                .map(l -> links.getOrDefault(l.name(), LinkState.unknown(l.name())))
                .toList();
    }
}
