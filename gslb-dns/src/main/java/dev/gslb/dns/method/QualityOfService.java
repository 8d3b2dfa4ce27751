package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * F5's Quality of Service: each candidate gets a weighted score over what is known of it, and the
 * highest wins. Every metric is first normalised to 0..10 against F5's upper limits (RTT 2,000,000
 * us, hops 64, packet rate 700 packets/s and 15,000 kB/s, lower is better; completion 100 %,
 * topology score 100, link headroom 2,000,000 kbit/s, 20 servers up and score 100, higher is
 * better), then multiplied by its coefficient. A metric not known of a candidate adds nothing.
 * The defaults are F5's: RTT 50, completion 5, link capacity 30, kilobytes per second 3, packet
 * rate 1, the rest 0. A path-metric method: it decides only when every candidate's data center
 * has a fresh path.
 */
public final class QualityOfService extends PathMetricMethod {
    static final double RTT_LIMIT = 2_000_000;
    static final double HOPS_LIMIT = 64;
    static final double TOPOLOGY_LIMIT = 100;
    static final double HEADROOM_LIMIT_KBPS = 2_000_000;
    static final double PACKET_RATE_LIMIT = 700;
    static final double KILOBYTES_LIMIT = 15_000;
    static final double SERVERS_UP_LIMIT = 20;
    static final double SCORE_LIMIT = 100;

    /** The coefficients (config {@code load-balancing.qos}, and a pool's {@code qos} over them). */
    public record Settings(
            int rtt,
            int completionRate,
            int hops,
            int topology,
            int linkCapacity,
            int vsCapacity,
            int packetRate,
            int kilobytesPerSecond,
            int vsScore) {
        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(
                Settings.class,
                coefficient("rtt", 50, "path RTT, up to 2,000,000 us (10: 0 us)"),
                coefficient("completion-rate", 5, "path completion (10: 100 %)"),
                coefficient("hops", 0, "path hops, up to 64 (10: 0 hops; unmeasured: not counted)"),
                coefficient("topology", 0, "the data center's topology score, up to 100"),
                coefficient("link-capacity", 30, "the link's headroom, up to 2,000,000 kbit/s (unknown: not counted)"),
                coefficient(
                        "vs-capacity",
                        0,
                        "servers up behind it, up to 20 (unknown: 1 when a monitor confirmed it UP, else not counted)"),
                coefficient("packet-rate", 1, "its packets per second, up to 700 (10: none; unknown: not counted)"),
                coefficient(
                        "kilobytes-per-second", 3, "its traffic, up to 15,000 kB/s (10: none; unknown: not counted)"),
                coefficient("vs-score", 0, "the operator's score of it, up to 100 (no score: not counted)"));

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
        ServerLoad load = state.load() == null ? ServerLoad.UNKNOWN : state.load();
        int up = serversUp(state);
        if (k.vsCapacity() > 0 && up > 0) {
            s += k.vsCapacity() * higherIsBetter(up, SERVERS_UP_LIMIT);
        }
        if (k.packetRate() > 0 && load.packetsPerSecond() >= 0) {
            s += k.packetRate() * lowerIsBetter(load.packetsPerSecond(), PACKET_RATE_LIMIT);
        }
        if (k.kilobytesPerSecond() > 0 && load.bytesPerSecond() >= 0) {
            s += k.kilobytesPerSecond() * lowerIsBetter(load.bytesPerSecond() / 1000.0, KILOBYTES_LIMIT);
        }
        if (k.vsScore() > 0) {
            s += k.vsScore() * higherIsBetter(vs.score(), SCORE_LIMIT);
        }
        return s;
    }

    /** Servers up behind it: as measured, else 1 when a monitor confirmed it UP, else 0 (not counted). */
    private static int serversUp(ServerState state) {
        int measured = state.load() == null ? -1 : state.load().serversUp();
        return measured >= 0 ? measured : state.confirmedUp() ? 1 : 0;
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
        ServerLoad load = c.state(candidate).load() == null
                ? ServerLoad.UNKNOWN
                : c.state(candidate).load();
        return String.format(
                Locale.ROOT,
                "qos %.1f (rtt %d us, completion %d, hops %d, topology %d, link headroom %s, %d servers up%s, %s, %s,"
                        + " score %d)",
                score(q, c, candidate, e, i),
                e.rttMicros(i),
                e.completion(i),
                e.hops(i),
                topologyScore(q, vs),
                headroom < 0 ? "unknown" : headroom + " bit/s",
                serversUp(c.state(candidate)),
                load.serversUp() >= 0
                        ? ""
                        : c.state(candidate).confirmedUp() ? " (confirmed up)" : " (not confirmed up)",
                LoadMetric.PACKET_RATE.describe(LoadMetric.PACKET_RATE.of(load)),
                LoadMetric.KILOBYTES_PER_SECOND.describe(LoadMetric.KILOBYTES_PER_SECOND.of(load)),
                vs.score());
    }

    @Override
    String describe(Path p) {
        return "rtt " + p.rttMicros() + " us, completion " + p.completion();
    }
}
