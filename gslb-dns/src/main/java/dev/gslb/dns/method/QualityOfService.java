package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * F5's Quality of Service: each candidate gets a weighted score over what is known of it, and the
 * highest wins. Every metric is first normalised to 0..10 against F5's upper limits (RTT 2,000,000
 * us and hops 64, lower is better; completion 100 %, topology score 100, link headroom 2,000,000
 * kbit/s, higher is better; a server a monitor confirmed UP 10, one only unknown 0), then
 * multiplied by its coefficient. The defaults are F5's: RTT 50, completion 5, link capacity 30,
 * the rest 0 (packet rate and kbit/s per server need F5's agents and are not measured here). A
 * path-metric method: it decides only when every candidate's data center has a fresh path.
 */
public final class QualityOfService extends PathMetricMethod {
    static final double RTT_LIMIT = 2_000_000;
    static final double HOPS_LIMIT = 64;
    static final double TOPOLOGY_LIMIT = 100;
    static final double HEADROOM_LIMIT_KBPS = 2_000_000;

    /** The coefficients (config {@code load-balancing.qos}, and a pool's {@code qos} over them). */
    public record Settings(int rtt, int completionRate, int hops, int topology, int linkCapacity, int vsCapacity) {
        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(
                Settings.class,
                coefficient("rtt", 50, "path RTT, up to 2,000,000 us (10: 0 us)"),
                coefficient("completion-rate", 5, "path completion (10: 100 %)"),
                coefficient("hops", 0, "path hops, up to 64 (10: 0 hops; unmeasured: not counted)"),
                coefficient("topology", 0, "the data center's topology score, up to 100"),
                coefficient("link-capacity", 30, "the link's headroom, up to 2,000,000 kbit/s (unknown: not counted)"),
                coefficient("vs-capacity", 0, "a monitor confirmed the server UP"));

        /** F5's. */
        public static final Settings DEFAULTS = SETTINGS.defaults();

        private static Setting<Integer> coefficient(String key, int defaultValue, String metric) {
            return Setting.integer(key, defaultValue, 0, 10_000, metric);
        }
    }

    /** {@code qos:}, the coefficients for every pool (F5's where not given). */
    public static final Setting<Settings> QOS = Setting.of(
                    "qos",
                    Settings.class,
                    Settings.DEFAULTS,
                    "the coefficients (its keys below); a pool's qos: over them")
            .shown("see load-balancing.qos");

    /** The method's keys under {@code load-balancing:}: one, {@link #QOS}. */
    public static final SettingsTable<Settings> SETTINGS =
            SettingsTable.of(Settings.class, v -> v.get(QOS)).add(QOS, settings -> settings);

    private final Supplier<TopologyTable> topology;
    private final Settings k;

    public QualityOfService(
            ProximityTable table, long pathTtlMillis, Supplier<TopologyTable> topology, Settings settings) {
        super(table, pathTtlMillis);
        this.topology = topology;
        this.k = settings;
    }

    @Override
    public String name() {
        return "quality-of-service";
    }

    @Override
    boolean better(LdnsEntry e, int a, int b) {
        return false; // unused: QoS compares candidates, not bare paths (below)
    }

    @Override
    boolean better(QueryContext q, Candidates c, int x, int a, int y, int b, LdnsEntry e) {
        return score(q, c, x, e, a) > score(q, c, y, e, b);
    }

    /** The weighted sum of the normalised metrics of candidate {@code candidate} over path {@code i}. */
    double score(QueryContext q, Candidates c, int candidate, LdnsEntry e, int i) {
        VirtualServer vs = c.get(candidate);
        ServerState state = c.state(candidate);
        double s = k.rtt() * lowerIsBetter(e.rttMicros(i), RTT_LIMIT)
                + k.completionRate() * 10.0 * e.completion(i) / 10_000;
        if (k.hops() > 0 && e.hops(i) > 0) {
            s += k.hops() * lowerIsBetter(e.hops(i), HOPS_LIMIT);
        }
        if (k.topology() > 0) {
            s += k.topology() * higherIsBetter(topologyScore(q, vs), TOPOLOGY_LIMIT);
        }
        long headroom = k.linkCapacity() > 0 ? state.headroomBps() : -1;
        if (headroom >= 0) {
            s += k.linkCapacity() * higherIsBetter(headroom / 1000.0, HEADROOM_LIMIT_KBPS);
        }
        if (k.vsCapacity() > 0 && state.confirmedUp()) {
            s += k.vsCapacity() * 10.0;
        }
        return s;
    }

    private long topologyScore(QueryContext q, VirtualServer vs) {
        TopologyMatch m = topology.get().lookup(q.placeHi(), q.placeLo());
        return m == null ? 0 : m.scoreOf(vs.dataCenter().name());
    }

    static double lowerIsBetter(double value, double limit) {
        return 10.0 * (1 - Math.min(value, limit) / limit);
    }

    static double higherIsBetter(double value, double limit) {
        return 10.0 * Math.min(Math.max(value, 0), limit) / limit;
    }

    @Override
    String describe(QueryContext q, Candidates c, int candidate, LdnsEntry e, int i) {
        VirtualServer vs = c.get(candidate);
        long headroom = c.state(candidate).headroomBps();
        return String.format(
                Locale.ROOT,
                "qos %.1f (rtt %d us, completion %d, hops %d, topology %d, link headroom %s, %s)",
                score(q, c, candidate, e, i),
                e.rttMicros(i),
                e.completion(i),
                e.hops(i),
                topologyScore(q, vs),
                headroom < 0 ? "unknown" : headroom + " bit/s",
                c.state(candidate).confirmedUp() ? "confirmed up" : "not confirmed up");
    }

    @Override
    String describe(Path p) {
        return "rtt " + p.rttMicros() + " us, completion " + p.completion();
    }
}
