package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.proximity.RttMargin;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * Lowest round-trip time from the data center to the LDNS wins; the higher completion rate
 * breaks ties. With a margin (percent and microseconds, by default 5 % and 10 ms) the data center
 * the LDNS's entry keeps ({@link LdnsEntry#keptDataCenter()}, moved by path updates only, alike on
 * every instance) answers unless another candidate is better by more than both, so answers do not
 * flap between two nearly equal paths as their estimates wander with jitter. When the kept one is
 * not a candidate, a near tie goes to the data center the LDNS prefers, the same on every instance.
 */
public final class LowestRoundTripTime extends PathMetricMethod {
    /**
     * The stickiness margin (config {@code load-balancing.rtt-margin-percent}, {@code rtt-margin});
     * both must hold for the answer to move, so the larger one rules: 10 ms up to 200 ms, 5 % above.
     * 0 and 0: off.
     */
    public record Settings(int marginPercent, long marginMicros) {
        public static final Setting<Integer> MARGIN_PERCENT = Setting.integer(
                "rtt-margin-percent", 5, 0, 99, "keep the previous RTT choice unless another is this much better...");
        private static final Duration DEFAULT_MARGIN = Duration.ofMillis(10);
        public static final Setting<Long> MARGIN = Setting.duration(
                        "rtt-margin", DEFAULT_MARGIN, "...and by this much (both must hold); 0 and 0 = off")
                .map(margin -> margin.toNanos() / 1000, DEFAULT_MARGIN.toNanos() / 1000);

        /** Its keys under {@code load-balancing:}. */
        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(Settings.class, MARGIN_PERCENT, MARGIN);

        public static final Settings DEFAULTS = SETTINGS.defaults();

        /** The margin itself, as the proximity table keeps its entries' data centers by it. */
        public RttMargin margin() {
            return new RttMargin(marginPercent, marginMicros);
        }
    }

    private final RttMargin margin;

    public LowestRoundTripTime(ProximityTable table, long pathTtlMillis, Settings settings) {
        super(table, pathTtlMillis);
        this.margin = settings.margin();
    }

    @Override
    public String name() {
        return "lowest-round-trip-time";
    }

    @Override
    boolean better(LdnsEntry e, int a, int b) {
        return e.rttMicros(a) < e.rttMicros(b) || e.rttMicros(a) == e.rttMicros(b) && e.completion(a) > e.completion(b);
    }

    @Override
    String describe(Path p) {
        return "rtt " + p.rttMicros() + " us, completion " + p.completion();
    }

    @Override
    int settle(QueryContext q, Candidates c, LdnsEntry e, int best, int bestPath) {
        if (margin.off()) {
            return best;
        }
        int kept = e.keptDataCenter();
        if (kept == e.dataCenterNumber(bestPath)) {
            return best; // the steady case
        }
        for (int i = 0; i < c.size(); i++) {
            int at = q.pathAt[i];
            if (e.dataCenterNumber(at) == kept) {
                if (margin.clearlyBetter(e.rttMicros(bestPath), e.rttMicros(at))) {
                    return best; // only if the table's margin were another than this one
                }
                if (q.tracing()) {
                    q.trace.note(
                            name(),
                            "keeps " + e.dataCenter(at) + ": " + e.dataCenter(bestPath)
                                    + " is not better by the margin");
                }
                return i;
            }
        }
        return preferred(q, c, e, best, bestPath);
    }

    /**
     * The kept data center is not a candidate (its servers are down, the pool is over others) or
     * there is none yet: of the candidates the best is not clearly better than, the one this LDNS
     * prefers ({@link RttMargin#preference}), the same on every instance.
     */
    private int preferred(QueryContext q, Candidates c, LdnsEntry e, int best, int bestPath) {
        int chosen = best;
        long top = RttMargin.preference(q.ldnsHi, q.ldnsLo, e.dataCenter(bestPath));
        for (int i = 0; i < c.size(); i++) {
            int at = q.pathAt[i];
            if (e.dataCenterNumber(at) == e.dataCenterNumber(bestPath)
                    || margin.clearlyBetter(e.rttMicros(bestPath), e.rttMicros(at))) {
                continue; // the best's data center is scored; a clearly slower one is out
            }
            long score = RttMargin.preference(q.ldnsHi, q.ldnsLo, e.dataCenter(at));
            if (score > top) {
                top = score;
                chosen = i;
            }
        }
        if (chosen != best && q.tracing()) {
            q.trace.note(
                    name(),
                    "prefers " + e.dataCenter(q.pathAt[chosen]) + ": " + e.dataCenter(bestPath)
                            + " is not better by the margin (a near tie goes to the LDNS's preference, the same on"
                            + " every instance)");
        }
        return chosen;
    }
}
