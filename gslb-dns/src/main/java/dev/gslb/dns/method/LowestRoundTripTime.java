package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.topology.Address;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lowest round-trip time from the data center to the LDNS wins; the higher completion rate
 * breaks ties. With a margin (percent and/or microseconds) the previous choice for this LDNS is
 * kept unless another is better by more than both, so answers do not flap between two nearly
 * equal paths.
 */
public final class LowestRoundTripTime extends PathMetricMethod {
    private static final int MAX_REMEMBERED = 1_000_000;

    /**
     * The stickiness margin (config {@code load-balancing.rtt-margin-percent}, {@code rtt-margin});
     * both must hold for the answer to move. 0 and 0: off.
     */
    public record Settings(int marginPercent, long marginMicros) {
        public static final Setting<Integer> MARGIN_PERCENT = Setting.integer(
                "rtt-margin-percent", 0, 0, 99, "keep the previous RTT choice unless another is this much better...");
        public static final Setting<Long> MARGIN = Setting.duration(
                        "rtt-margin", Duration.ZERO, "...and by this much (both must hold); 0 = off")
                .map(margin -> margin.toNanos() / 1000, 0L);

        /** Its keys under {@code load-balancing:}. */
        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(Settings.class, MARGIN_PERCENT, MARGIN);

        public static final Settings DEFAULTS = SETTINGS.defaults();
    }

    private final int marginPercent;
    private final long marginMicros;
    private final ConcurrentHashMap<Address, String> previous = new ConcurrentHashMap<>();

    public LowestRoundTripTime(ProximityTable table, long pathTtlMillis, Settings settings) {
        super(table, pathTtlMillis);
        this.marginPercent = settings.marginPercent();
        this.marginMicros = settings.marginMicros();
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
    int settle(QueryContext q, Candidates c, LdnsEntry e, int best) {
        if (marginPercent == 0 && marginMicros == 0) {
            return best;
        }
        Address key = new Address(q.ldnsHi, q.ldnsLo);
        String bestDc = c.get(best).dataCenter().name();
        String before = previous.get(key);
        if (before != null && !before.equals(bestDc)) {
            for (int i = 0; i < c.size(); i++) {
                if (c.get(i).dataCenter().name().equals(before)) {
                    long current = e.rttMicros(e.pathIndex(before));
                    long challenger = e.rttMicros(e.pathIndex(bestDc));
                    boolean clearlyBetter =
                            challenger + marginMicros < current && challenger * 100 < current * (100 - marginPercent);
                    if (!clearlyBetter) {
                        if (q.tracing()) {
                            q.trace.note(name(), "keeps " + before + ": " + bestDc + " is not better by the margin");
                        }
                        return i;
                    }
                }
            }
        }
        if (!bestDc.equals(before)) {
            if (previous.size() >= MAX_REMEMBERED) {
                previous.clear();
            }
            previous.put(key, bestDc);
        }
        return best;
    }
}
