package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * Lowest round-trip time from the data center to the LDNS wins; the higher completion rate
 * breaks ties. With a margin (percent and microseconds, by default 5 % and 10 ms) the previous
 * choice for this LDNS is kept unless another is better by more than both, so answers do not flap
 * between two nearly equal paths as their estimates wander with jitter. With no previous choice, a
 * near tie goes to the data center the LDNS prefers, the same on every instance.
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

        /** Whether a path of {@code challenger} µs is better than the kept one of {@code current} µs by both margins. */
        boolean clearlyBetter(long challenger, long current) {
            return challenger + marginMicros < current && challenger * 100 < current * (100 - marginPercent);
        }

        boolean off() {
            return marginPercent == 0 && marginMicros == 0;
        }
    }

    private final Settings margin;
    private final RttChoices choices;

    /** {@code choices} is shared by every pool's instance (see {@link RttChoices}). */
    public LowestRoundTripTime(ProximityTable table, long pathTtlMillis, RttChoices choices, Settings settings) {
        super(table, pathTtlMillis);
        this.margin = settings;
        this.choices = choices;
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
        // every candidate has a path here (decide passed otherwise); a bit per data-center number
        long dataCenters = 0;
        for (int i = 0; i < c.size(); i++) {
            dataCenters |= 1L << e.dataCenterNumber(q.pathAt[i]);
        }
        int bestDc = e.dataCenterNumber(bestPath);
        int before = choices.previous(q.ldnsHi, q.ldnsLo, dataCenters);
        if (before == bestDc) {
            return best; // remembered already: the steady case reads the table once and writes nothing
        }
        if (before == RttChoices.NONE) {
            best = preferred(q, c, e, best, bestPath);
            bestDc = e.dataCenterNumber(q.pathAt[best]);
        } else {
            for (int i = 0; i < c.size(); i++) {
                int at = q.pathAt[i];
                if (e.dataCenterNumber(at) == before) {
                    if (margin.clearlyBetter(e.rttMicros(bestPath), e.rttMicros(at))) {
                        break;
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
        }
        choices.remember(q.ldnsHi, q.ldnsLo, dataCenters, bestDc);
        return best;
    }

    /**
     * With nothing remembered: of the candidates the best is not clearly better than, the one this
     * LDNS prefers by rendezvous hashing on the data centers' names. Every instance of a pair
     * computes the same preference, so on a near tie they start from the same data center (and the
     * margin then moves them alike). Taking the fastest however close let each instance keep
     * whichever was ahead by a few ms when it first answered, and a resolver asking both flipped on
     * nearly every query (1,060 flips an hour in the quality bench).
     */
    private int preferred(QueryContext q, Candidates c, LdnsEntry e, int best, int bestPath) {
        int chosen = best;
        long top = preference(q.ldnsHi, q.ldnsLo, e.dataCenter(bestPath));
        for (int i = 0; i < c.size(); i++) {
            int at = q.pathAt[i];
            if (e.dataCenterNumber(at) == e.dataCenterNumber(bestPath)
                    || margin.clearlyBetter(e.rttMicros(bestPath), e.rttMicros(at))) {
                continue; // the best's data center is scored; a clearly slower one is out
            }
            long score = preference(q.ldnsHi, q.ldnsLo, e.dataCenter(at));
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

    /**
     * The rendezvous-hash score of {@code dataCenter} for an LDNS: from the address and the name
     * alone (String's hash is specified), so every instance and version agrees; nothing secret.
     */
    static long preference(long hi, long lo, String dataCenter) {
        return RttChoices.mix(hi * 0x9e3779b97f4a7c15L ^ lo ^ RttChoices.mix(dataCenter.hashCode()));
    }
}
