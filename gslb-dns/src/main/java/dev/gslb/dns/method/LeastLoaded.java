package dev.gslb.dns.method;

/**
 * The shape of the methods that answer the least loaded candidate by one metric (F5's
 * least-connections, packet-rate, kilobytes-per-second, cpu). A candidate whose metric is unknown
 * is left out; when none is known the method passes. Ties keep the candidates' order.
 */
abstract class LeastLoaded implements LoadBalancingMethod {
    private final LoadMetric metric;

    LeastLoaded(LoadMetric metric) {
        this.metric = metric;
    }

    @Override
    public java.util.Set<dev.gslb.probe.load.Metric> readsLoad() {
        return java.util.Set.of(metric.source());
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        int best = -1;
        double least = 0;
        for (int i = 0; i < c.size(); i++) {
            double v = metric.read(c, i, q, name());
            if (v >= 0 && (best < 0 || v < least)) {
                best = i;
                least = v;
            }
        }
        if (best < 0) {
            if (q.tracing()) {
                q.trace.note(name(), "no candidate's " + metric + " is known");
            }
            return Outcome.PASS;
        }
        return c.pick(best);
    }
}
