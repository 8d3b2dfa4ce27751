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
        Metric m = unmeasured(load, limits);
        if (m != null) { // a limit nothing measures would never spill: refused rather than ignored
            throw new IllegalArgumentException("virtual server " + server + ": a limit on " + ServerLimits.key(m)
                    + " but no source under 'load:' reads " + m.key());
        }
    }

    /** The first metric {@code limits} limits that no source of {@code load} reads, or null. */
    public static Metric unmeasured(LoadSpec load, ServerLimits limits) {
        Set<Metric> missing = EnumSet.noneOf(Metric.class);
        if (limits != null) {
            missing.addAll(limits.metrics());
        }
        if (load != null) {
            missing.removeAll(load.metrics());
        }
        return missing.isEmpty() ? null : missing.iterator().next();
    }

    /** Whether it has limits to check. */
    public boolean limited() {
        return !limits.metrics().isEmpty();
    }
}
