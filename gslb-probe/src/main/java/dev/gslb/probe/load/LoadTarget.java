package dev.gslb.probe.load;

import java.util.EnumSet;
import java.util.Set;

/**
 * A virtual server whose load is read: where ({@code load}, null when nowhere) and its limits.
 * Only an instance of {@code dataCenter} polls it; the others take its owner's measurement.
 */
public record LoadTarget(String server, String dataCenter, LoadSpec load, ServerLimits limits) {
    public LoadTarget {
        limits = limits == null ? ServerLimits.NONE : limits;
        Set<Metric> missing = EnumSet.noneOf(Metric.class);
        missing.addAll(limits.metrics());
        if (load != null) {
            missing.removeAll(load.metrics());
        }
        if (!missing.isEmpty()) { // a limit nothing measures would never spill: refused rather than ignored
            Metric m = missing.iterator().next();
            throw new IllegalArgumentException("virtual server " + server + ": a limit on " + ServerLimits.key(m)
                    + " but no source under 'load:' reads " + m.key()
                    + (load == null ? " (it has no 'load:')" : " (its sources read " + keys(load.metrics()) + ")"));
        }
    }

    private static String keys(Set<Metric> metrics) {
        return metrics.stream().map(Metric::key).toList().toString();
    }

    /** Whether it has limits to check. */
    public boolean limited() {
        return !limits.metrics().isEmpty();
    }
}
