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
 * keeps a counter per pool). Adding a method is one class and one line here.
 */
public final class MethodRegistry {
    /** What methods may read: the proximity table, the topology in service, and their settings. */
    public record Services(ProximityTable proximity, Supplier<TopologyTable> topology, long pathTtlMillis,
                           int rttMarginPercent, long rttMarginMicros, int persistPrefixV4, int persistPrefixV6) {
        /** For checking a configuration before a server exists: methods are built, never run. */
        public static final Services UNBOUND = new Services(null, TopologyTable::empty, 0, 0, 0, 24, 56);
    }

    /** Every method's name, in the order of the README. */
    public static final List<String> NAMES = List.of("lowest-round-trip-time", "completion-rate", "fewest-hops",
            "topology", "global-availability", "round-robin", "ratio", "static-persistence", "fallback-ip",
            "return-to-dns", "drop-packet", "none");

    /** The methods that read measured paths (F5: never allowed as the alternate). */
    public static final java.util.Set<String> PATH_METRIC_METHODS =
            java.util.Set.of("lowest-round-trip-time", "completion-rate", "fewest-hops");

    /** The source's chain: RTT, then topology, then global availability. */
    public static final List<String> DEFAULT_CHAIN =
            List.of("lowest-round-trip-time", "topology", "global-availability");

    private final Map<String, Function<Services, LoadBalancingMethod>> factories = new LinkedHashMap<>();
    private final Services services;

    public MethodRegistry(Services services) {
        this.services = services;
        factories.put("lowest-round-trip-time", s -> new LowestRoundTripTime(s.proximity(), s.pathTtlMillis(),
                s.rttMarginPercent(), s.rttMarginMicros()));
        factories.put("completion-rate", s -> new CompletionRate(s.proximity(), s.pathTtlMillis()));
        factories.put("fewest-hops", s -> new FewestHops(s.proximity(), s.pathTtlMillis()));
        factories.put("topology", s -> new Topology(s.topology()));
        factories.put("global-availability", s -> new GlobalAvailability());
        factories.put("round-robin", s -> new RoundRobin());
        factories.put("ratio", s -> new Ratio());
        factories.put("static-persistence", s -> new StaticPersistence(s.persistPrefixV4(), s.persistPrefixV6()));
        factories.put("fallback-ip", s -> Terminal.fallbackIp());
        factories.put("return-to-dns", s -> Terminal.returnToDns());
        factories.put("drop-packet", s -> Terminal.dropPacket());
        factories.put("none", s -> Terminal.none());
    }

    public LoadBalancingMethod create(String name) {
        var f = factories.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown load-balancing method '" + name + "'; known: " + names());
        }
        return f.apply(services);
    }

    public List<String> names() {
        return NAMES;
    }
}
