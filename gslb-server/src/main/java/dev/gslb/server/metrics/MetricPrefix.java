package dev.gslb.server.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.List;

/**
 * Names every meter of this server {@code gslb_...} as it registers, whichever module made it,
 * so the code names a meter by what it counts ({@code dns_responses}) and a new meter gets the
 * prefix without anyone remembering it. The JVM and process meters of Micrometer's binders keep
 * their standard names ({@code jvm_}, {@code process_}, {@code system_}): the dashboards and
 * alerts written for every JVM read those.
 */
public final class MetricPrefix implements MeterFilter {
    public static final String PREFIX = "gslb_";
    private static final List<String> STANDARD = List.of("jvm.", "process.", "system.");

    @Override
    public Meter.Id map(Meter.Id id) {
        String name = id.getName();
        String named = of(name);
        return named.equals(name) ? id : id.withName(named);
    }

    /** The name a meter registered as {@code name} has in the registry (what a search must ask for). */
    public static String of(String name) {
        if (name.startsWith(PREFIX)) {
            return name;
        }
        for (String s : STANDARD) {
            if (name.startsWith(s)) {
                return name;
            }
        }
        return PREFIX + name;
    }
}
