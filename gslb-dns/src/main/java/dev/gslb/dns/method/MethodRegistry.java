package dev.gslb.dns.method;

import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.settings.SettingsTable;
import dev.gslb.topology.TopologyTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every load-balancing method by its F5 name. Each pool gets its own instances (round-robin
 * keeps a counter per pool). Adding a method is one class and one line here; a method with
 * settings declares its record and the table of its keys in its class, and reads it from
 * {@link MethodSettings}.
 */
public final class MethodRegistry {
    /**
     * What methods may read: the proximity table, the topology in service, the path TTL, each
     * method's own settings record. What a method reads of a candidate's state (link headroom,
     * confirmed health) comes with the candidates, from the published site state.
     */
    public record Services(
            ProximityTable proximity, Supplier<TopologyTable> topology, long pathTtlMillis, MethodSettings settings) {
        /** For checking a configuration before a server exists: methods are built, never run. */
        public static final Services UNBOUND = new Services(null, TopologyTable::empty, 0, MethodSettings.DEFAULTS);

        /** The same services with a pool's own method settings over the global ones. */
        Services with(MethodSettings pool) {
            return new Services(proximity, topology, pathTtlMillis, settings.overriddenBy(pool));
        }
    }

    /**
     * Every method by name, in the order of docs/operator-guide.md "The methods": the only list of
     * names. A method says itself whether it reads measured paths
     * ({@link LoadBalancingMethod#usesPathMetrics}).
     */
    private static final Map<String, Function<Services, LoadBalancingMethod>> FACTORIES = new LinkedHashMap<>();

    /** The tables of the methods that have settings: their keys are read under {@code load-balancing:}. */
    private static final List<SettingsTable<? extends Record>> SETTINGS = new ArrayList<>();

    static {
        add(
                "lowest-round-trip-time",
                LowestRoundTripTime.Settings.SETTINGS,
                (s, settings) -> new LowestRoundTripTime(s.proximity(), s.pathTtlMillis(), settings));
        add("completion-rate", s -> new CompletionRate(s.proximity(), s.pathTtlMillis()));
        add("fewest-hops", s -> new FewestHops(s.proximity(), s.pathTtlMillis()));
        add(
                "quality-of-service",
                QualityOfService.SETTINGS,
                (s, settings) -> new QualityOfService(s.proximity(), s.pathTtlMillis(), s.topology(), settings));
        add("topology", s -> new Topology(s.topology()));
        add("global-availability", s -> new GlobalAvailability());
        add("round-robin", s -> new RoundRobin());
        add("ratio", s -> new Ratio());
        add("least-connections", s -> new LeastConnections());
        add("packet-rate", s -> new PacketRate());
        add("kilobytes-per-second", s -> new KilobytesPerSecond());
        add("cpu", s -> new Cpu());
        add("vs-capacity", s -> new VsCapacity());
        add("vs-score", s -> new VsScore());
        add("dynamic-ratio", DynamicRatio.SETTINGS, (s, settings) -> new DynamicRatio(settings));
        add("random", s -> new RandomChoice());
        add("load-band-random", LoadBandRandom.SETTINGS, (s, settings) -> new LoadBandRandom(settings));
        add(
                "static-persistence",
                StaticPersistence.Settings.SETTINGS,
                (s, settings) -> new StaticPersistence(settings));
        add("fallback-ip", s -> Terminal.fallbackIp());
        add("return-to-dns", s -> Terminal.returnToDns());
        add("drop-packet", s -> Terminal.dropPacket());
        add("none", s -> Terminal.none());
    }

    private static void add(String name, Function<Services, LoadBalancingMethod> factory) {
        FACTORIES.put(name, factory);
    }

    /** A method with settings, the keys of {@code table}: it gets the configured record, or the table's defaults. */
    private static <T extends Record> void add(
            String name, SettingsTable<T> table, BiFunction<Services, T, LoadBalancingMethod> factory) {
        SETTINGS.add(table);
        T defaults = table.defaults();
        add(name, s -> factory.apply(s, s.settings().orDefault(defaults)));
    }

    /** The source's chain: RTT, then topology, then global availability. */
    public static final List<String> DEFAULT_CHAIN =
            List.of("lowest-round-trip-time", "topology", "global-availability");

    private final Services services;

    public MethodRegistry(Services services) {
        this.services = services;
    }

    public LoadBalancingMethod create(String name) {
        return create(name, MethodSettings.DEFAULTS);
    }

    /** A method for a pool that sets some method settings of its own (its {@code qos:}). */
    public LoadBalancingMethod create(String name, MethodSettings pool) {
        var f = FACTORIES.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown load-balancing method '" + name + "'; known: " + names());
        }
        return f.apply(services.with(pool));
    }

    /** The tables of the methods that have settings, each of its own keys under {@code load-balancing:}. */
    public static List<SettingsTable<? extends Record>> settingsTables() {
        return List.copyOf(SETTINGS);
    }

    /** Every method's name, in the order of docs/operator-guide.md "The methods". */
    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
    }
}
