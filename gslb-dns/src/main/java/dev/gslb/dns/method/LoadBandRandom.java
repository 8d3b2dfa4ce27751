package dev.gslb.dns.method;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A random member among those whose load is within a band of the least loaded (the source's
 * "random inside a band of similarly loaded servers"). Loads are published every few seconds,
 * so least-connections sends every answer of that time to one server; the band spreads them
 * over every server about as idle. Unknown: left out; none known: passes.
 */
public final class LoadBandRandom implements LoadBalancingMethod {
    /**
     * The metric banded on and the band, in percent of the least loaded member's value (config
     * {@code load-balancing.load-band}).
     */
    public record Settings(LoadMetric metric, int bandPercent) {
        public static final Setting<LoadMetric> METRIC = Setting.of(
                        "metric",
                        String.class,
                        "connections",
                        "what load is banded on: connections (every load source reads it) or another")
                .check(LoadMetric.keys(), LoadMetric::ofKey)
                .map(LoadMetric::ofKey, LoadMetric.CONNECTIONS);
        public static final Setting<Integer> BAND_PERCENT = Setting.integer(
                "band-percent",
                20,
                0,
                1000,
                "members up to this much above the least loaded share the answers (0: only equals)");

        public static final SettingsTable<Settings> SETTINGS = SettingsTable.of(Settings.class, METRIC, BAND_PERCENT);

        public static final Settings DEFAULTS = SETTINGS.defaults();
    }

    /** {@code load-band:} (its keys above). */
    public static final Setting<Settings> LOAD_BAND = Setting.of(
                    "load-band", Settings.class, Settings.DEFAULTS, "load-band-random: the metric and the band")
            .shown("see load-balancing.load-band");

    /** The method's keys under {@code load-balancing:}: one, {@link #LOAD_BAND}. */
    public static final SettingsTable<Settings> SETTINGS =
            SettingsTable.of(Settings.class, v -> v.get(LOAD_BAND)).add(LOAD_BAND, settings -> settings);

    private final LoadMetric metric;
    private final int bandPercent;

    public LoadBandRandom(Settings settings) {
        this.metric = settings.metric();
        this.bandPercent = settings.bandPercent();
    }

    @Override
    public String name() {
        return "load-band-random";
    }

    @Override
    public java.util.Set<dev.gslb.probe.load.Metric> readsLoad() {
        return java.util.Set.of(metric.source());
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        double least = -1;
        for (int i = 0; i < c.size(); i++) {
            double v = metric.read(c, i, q, name());
            if (v >= 0 && (least < 0 || v < least)) {
                least = v;
            }
        }
        if (least < 0) {
            if (q.tracing()) {
                q.trace.note(name(), "no candidate's " + metric + " is known");
            }
            return Outcome.PASS;
        }
        double limit = least * (100 + bandPercent) / 100;
        int inBand = 0;
        for (int i = 0; i < c.size(); i++) {
            if (inBand(c, i, limit)) {
                inBand++;
            }
        }
        if (q.tracing()) {
            q.trace.note(
                    name(),
                    inBand + " within " + bandPercent + " % of the least loaded (" + metric.describe(least) + ", up to "
                            + metric.describe(limit) + ")");
        }
        int k = ThreadLocalRandom.current().nextInt(inBand);
        for (int i = 0; ; i++) {
            if (inBand(c, i, limit) && k-- == 0) {
                return c.pick(i);
            }
        }
    }

    private boolean inBand(Candidates c, int i, double limit) {
        double v = metric.of(c.state(i).load());
        return v >= 0 && v <= limit;
    }
}
