package dev.gslb.dns.method;

import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.TopologyTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every load-balancing method by its F5 name. Each pool gets its own instances (round-robin
 * keeps a counter per pool). Adding a method is one class and one line here; a method with
 * settings declares its record (with defaults) in its class and reads it from {@link MethodSettings}.
 */
public final class MethodRegistry {
    /**
     * What methods may read: the proximity table, the topology in service, the path TTL, and each
     * method's own settings record.
     */
    public record Services(
            ProximityTable proximity, Supplier<TopologyTable> topology, long pathTtlMillis, MethodSettings settings) {
        /** For checking a configuration before a server exists: methods are built, never run. */
        public static final Services UNBOUND = new Services(null, TopologyTable::empty, 0, MethodSettings.DEFAULTS);
    }

    /**
     * Every method by name, in the order of the README: the only list of names. A method says
     * itself whether it reads measured paths ({@link LoadBalancingMethod#usesPathMetrics}).
     */
    private static final Map<String, Function<Services, LoadBalancingMethod>> FACTORIES = new LinkedHashMap<>();

    static {
        FACTORIES.put(
                "lowest-round-trip-time",
                s -> new LowestRoundTripTime(
                        s.proximity(),
                        s.pathTtlMillis(),
                        s.settings().orDefault(LowestRoundTripTime.Settings.DEFAULTS)));
        FACTORIES.put("completion-rate", s -> new CompletionRate(s.proximity(), s.pathTtlMillis()));
        FACTORIES.put("fewest-hops", s -> new FewestHops(s.proximity(), s.pathTtlMillis()));
        FACTORIES.put("topology", s -> new Topology(s.topology()));
        FACTORIES.put("global-availability", s -> new GlobalAvailability());
        FACTORIES.put("round-robin", s -> new RoundRobin());
        FACTORIES.put("ratio", s -> new Ratio());
        FACTORIES.put(
                "static-persistence",
                s -> new StaticPersistence(s.settings().orDefault(StaticPersistence.Settings.DEFAULTS)));
        FACTORIES.put("fallback-ip", s -> Terminal.fallbackIp());
        FACTORIES.put("return-to-dns", s -> Terminal.returnToDns());
        FACTORIES.put("drop-packet", s -> Terminal.dropPacket());
        FACTORIES.put("none", s -> Terminal.none());
    }

    /** The source's chain: RTT, then topology, then global availability. */
    public static final List<String> DEFAULT_CHAIN =
            List.of("lowest-round-trip-time", "topology", "global-availability");

    private final Services services;

    public MethodRegistry(Services services) {
        this.services = services;
    }

    public LoadBalancingMethod create(String name) {
        var f = FACTORIES.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown load-balancing method '" + name + "'; known: " + names());
        }
        return f.apply(services);
    }

    /** Every method's name, in the order of the README. */
    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
    }
}
