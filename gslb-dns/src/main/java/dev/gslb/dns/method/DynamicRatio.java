package dev.gslb.dns.method;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.VirtualServer;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The source's dynamic-feedback ratio: each member's weight starts at its configured ratio DW
 * and follows its measured load. For the members whose load is known:
 *
 * <pre>
 * AL    = r1 * connections / (C * DW) + r2 * memory (or cpu) / 100   the load, 1 = full
 * spare = DW * max(0, 1 - AL)                                          capacity left, in ratio units
 * LOAD  = (sum of DW) * spare / (sum of spare)                         the pool's ratio shared by spare
 *         (= DW when no member has any spare)
 * W     = max(0, A * DW + B * cbrt(LOAD - DW))
 * </pre>
 *
 * A new W replaces the weight in force only when it moves by at least the threshold (percent of
 * DW), so measurement noise does not move answers. Weights are recomputed when a candidate's
 * published load changes, never per query; answers then follow the weights in force, as ratio
 * follows ratios. A member whose needed metric is unknown, or of ratio 0, gets none; when none
 * is left the method passes.
 */
public final class DynamicRatio implements LoadBalancingMethod {
    /** The formula's coefficients (config {@code load-balancing.dynamic-ratio}). */
    public record Settings(
            double a, double b, double r1, double r2, LoadMetric r2Metric, int capacity, int thresholdPercent) {
        public static final Setting<Double> A = coefficient("a", 1.0, "A: weight of the configured ratio DW");
        public static final Setting<Double> B = coefficient("b", 1.0, "B: weight of the cube root of LOAD - DW");
        public static final Setting<Double> R1 =
                coefficient("r1", 1.0, "r1: weight of connections / (C * DW) in the load");
        public static final Setting<Double> R2 =
                coefficient("r2", 0.0, "r2: weight of r2-metric (percent / 100) in the load");
        public static final Setting<LoadMetric> R2_METRIC = Setting.of(
                        "r2-metric", String.class, "memory", "what r2 weighs: memory or cpu (SNMP reads both)")
                .check("memory, cpu", key -> {
                    if (!key.equals("memory") && !key.equals("cpu")) {
                        throw new IllegalArgumentException("r2-metric must be memory or cpu, not " + key);
                    }
                })
                .map(LoadMetric::ofKey, LoadMetric.MEMORY);
        public static final Setting<Integer> CAPACITY = Setting.integer(
                "capacity", 10_000, 1, 1_000_000_000, "C: the connections a member of ratio 1 has when full");
        public static final Setting<Integer> THRESHOLD_PERCENT = Setting.integer(
                "threshold-percent", 10, 0, 1000, "a new weight applies when it moves by this much of DW");

        public static final SettingsTable<Settings> SETTINGS =
                SettingsTable.of(Settings.class, A, B, R1, R2, R2_METRIC, CAPACITY, THRESHOLD_PERCENT);

        public static final Settings DEFAULTS = SETTINGS.defaults();

        public Settings {
            if (r1 == 0 && r2 == 0) {
                throw new IllegalArgumentException("dynamic-ratio: r1 and r2 are both 0, nothing measures the load");
            }
            if (r2Metric != LoadMetric.MEMORY && r2Metric != LoadMetric.CPU) {
                throw new IllegalArgumentException("dynamic-ratio: r2-metric must be memory or cpu");
            }
        }

        private static Setting<Double> coefficient(String key, double defaultValue, String doc) {
            return Setting.of(key, Double.class, defaultValue, doc).check("0..1000", v -> {
                if (!(v >= 0 && v <= 1000)) {
                    throw new IllegalArgumentException(key + " must be between 0 and 1000, not " + v);
                }
            });
        }
    }

    /** {@code dynamic-ratio:} (its keys above). */
    public static final Setting<Settings> DYNAMIC_RATIO = Setting.of(
                    "dynamic-ratio", Settings.class, Settings.DEFAULTS, "dynamic-ratio: the formula's coefficients")
            .shown("see load-balancing.dynamic-ratio");

    /** The method's keys under {@code load-balancing:}: one, {@link #DYNAMIC_RATIO}. */
    public static final SettingsTable<Settings> SETTINGS =
            SettingsTable.of(Settings.class, v -> v.get(DYNAMIC_RATIO)).add(DYNAMIC_RATIO, settings -> settings);

    /**
     * The weights in force for the members as last seen, with the loads they were computed from.
     * Immutable; replaced whole when a load changes.
     */
    record Weights(
            VirtualServer[] members,
            ServerLoad[] loads,
            double[] weight,
            double[] load,
            double[] formula,
            boolean[] counted) {
        static final Weights NONE = new Weights(
                new VirtualServer[0], new ServerLoad[0], new double[0], new double[0], new double[0], new boolean[0]);

        /** The slot of {@code vs}, looked for first at {@code hint} (candidates keep their order), or -1. */
        int slot(VirtualServer vs, int hint) {
            if (hint < members.length && members[hint] == vs) {
                return hint;
            }
            for (int s = 0; s < members.length; s++) {
                if (members[s] == vs) {
                    return s;
                }
            }
            return -1;
        }

        /** Whether every candidate is here with the load it has now. */
        boolean current(Candidates c) {
            for (int i = 0; i < c.size(); i++) {
                int s = slot(c.get(i), i);
                if (s < 0) {
                    return false;
                }
                ServerLoad now = c.state(i).load();
                if (loads[s] != now && !Objects.equals(loads[s], now)) {
                    return false;
                }
            }
            return true;
        }

        /** The weight counted for candidate {@code i} (0 when it is left out). */
        double of(Candidates c, int i) {
            int s = slot(c.get(i), i);
            return s >= 0 && counted[s] ? weight[s] : 0;
        }

        /** The weight in force for {@code vs} before (by name: a server is one name), or its ratio when it is new. */
        double before(VirtualServer vs) {
            for (int s = 0; s < members.length; s++) {
                if (members[s] == vs || members[s].name().equals(vs.name())) {
                    return weight[s];
                }
            }
            return vs.ratio();
        }
    }

    private final Settings k;
    private final AtomicReference<Weights> weights = new AtomicReference<>(Weights.NONE);
    private final AtomicLong next = new AtomicLong();

    public DynamicRatio(Settings settings) {
        this.k = settings;
    }

    @Override
    public String name() {
        return "dynamic-ratio";
    }

    /** Connections when r1 weighs them, and memory or CPU when r2 does. */
    @Override
    public java.util.Set<dev.gslb.probe.load.Metric> readsLoad() {
        java.util.Set<dev.gslb.probe.load.Metric> reads = java.util.EnumSet.noneOf(dev.gslb.probe.load.Metric.class);
        if (k.r1() > 0) {
            reads.add(dev.gslb.probe.load.Metric.CONNECTIONS);
        }
        if (k.r2() > 0) {
            reads.add(k.r2Metric().source());
        }
        return reads;
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        if (c.isEmpty()) {
            return Outcome.PASS;
        }
        Weights w = weights.get();
        if (!w.current(c)) {
            Weights fresh = recompute(c, w);
            weights.compareAndSet(w, fresh); // a racing thread computed the same loads, or newer ones
            w = fresh;
        }
        double total = 0;
        for (int i = 0; i < c.size(); i++) {
            total += w.of(c, i);
        }
        if (q.tracing()) {
            trace(c, q, w);
        }
        if (total <= 0) {
            if (q.tracing()) {
                q.trace.note(name(), "no candidate has a known load and a weight");
            }
            return Outcome.PASS;
        }
        // A Weyl sequence (k * golden ratio, mod 1): evenly spread over [0, 1) in any run of
        // decisions, so answers interleave in proportion to the weights, as ratio's counter does.
        double u = ((next.getAndIncrement() * 0x9E3779B97F4A7C15L) >>> 11) * 0x1.0p-53 * total;
        int last = -1;
        for (int i = 0; i < c.size(); i++) {
            double weight = w.of(c, i);
            if (weight > 0) {
                last = i;
                u -= weight;
                if (u < 0) {
                    return c.pick(i);
                }
            }
        }
        return c.pick(last); // rounding left u a hair above the total
    }

    /** The weights for the candidates' loads now; each moves only past the threshold. */
    Weights recompute(Candidates c, Weights before) {
        int n = c.size();
        VirtualServer[] members = new VirtualServer[n];
        ServerLoad[] loads = new ServerLoad[n];
        double[] weight = new double[n];
        double[] load = new double[n];
        double[] formula = new double[n];
        boolean[] counted = new boolean[n];
        double[] spare = new double[n];
        double sumRatio = 0;
        double sumSpare = 0;
        for (int i = 0; i < n; i++) {
            VirtualServer vs = c.get(i);
            members[i] = vs;
            loads[i] = c.state(i).load();
            weight[i] = before.before(vs);
            double dw = vs.ratio();
            double connections = LoadMetric.CONNECTIONS.of(loads[i]);
            double resource = k.r2Metric().of(loads[i]);
            counted[i] = dw > 0 && (k.r1() == 0 || connections >= 0) && (k.r2() == 0 || resource >= 0);
            if (counted[i]) {
                double al = (k.r1() == 0 ? 0 : k.r1() * connections / ((double) k.capacity() * dw))
                        + (k.r2() == 0 ? 0 : k.r2() * resource / 100);
                spare[i] = dw * Math.max(0, 1 - al);
                sumRatio += dw;
                sumSpare += spare[i];
            }
        }
        double threshold = k.thresholdPercent() / 100.0;
        for (int i = 0; i < n; i++) {
            if (!counted[i]) {
                continue;
            }
            double dw = members[i].ratio();
            load[i] = sumSpare > 0 ? sumRatio * spare[i] / sumSpare : dw;
            formula[i] = Math.max(0, k.a() * dw + k.b() * Math.cbrt(load[i] - dw));
            if (Math.abs(formula[i] - weight[i]) >= threshold * dw) {
                weight[i] = formula[i];
            }
        }
        return new Weights(members, loads, weight, load, formula, counted);
    }

    private void trace(Candidates c, QueryContext q, Weights w) {
        for (int i = 0; i < c.size(); i++) {
            VirtualServer vs = c.get(i);
            int s = w.slot(vs, i);
            ServerLoad load = c.state(i).load();
            if (!w.counted()[s]) {
                q.trace.note(name(), vs.name() + ": " + (vs.ratio() == 0 ? "ratio 0" : "load unknown") + ", left out");
                continue;
            }
            q.trace.note(
                    name(),
                    String.format(
                            Locale.ROOT,
                            "%s: %s, %s; ratio %d, LOAD %.2f, formula %.2f, weight %.2f%s",
                            vs.name(),
                            LoadMetric.CONNECTIONS.describe(LoadMetric.CONNECTIONS.of(load)),
                            k.r2Metric().describe(k.r2Metric().of(load)),
                            vs.ratio(),
                            w.load()[s],
                            w.formula()[s],
                            w.weight()[s],
                            w.weight()[s] == w.formula()[s] ? "" : " (kept: within the threshold)"));
        }
    }
}
