package dev.gslb.dns.method;

import dev.gslb.probe.load.Metric;
import dev.gslb.site.ServerLoad;
import java.util.Arrays;
import java.util.Locale;

/**
 * One measure of how loaded a server is, read from its published {@link ServerLoad}; lower is
 * less loaded. A negative value is unknown: the methods leave that candidate out, never read it
 * as zero.
 */
public enum LoadMetric {
    CONNECTIONS("connections"),
    PACKET_RATE("packets/s"),
    KILOBYTES_PER_SECOND("kB/s"),
    CPU("% cpu"),
    MEMORY("% memory"),
    LOAD_AVERAGE("load average");

    private final String unit;

    LoadMetric(String unit) {
        this.unit = unit;
    }

    /** What a load source reads for it. */
    public Metric source() {
        return switch (this) {
            case CONNECTIONS -> Metric.CONNECTIONS;
            case PACKET_RATE -> Metric.PACKETS;
            case KILOBYTES_PER_SECOND -> Metric.BYTES;
            case CPU -> Metric.CPU;
            case MEMORY -> Metric.MEMORY;
            case LOAD_AVERAGE -> Metric.LOAD_AVERAGE;
        };
    }

    /** Its value in {@code load}, or -1 when unknown. */
    public double of(ServerLoad load) {
        if (load == null) {
            return -1;
        }
        return switch (this) {
            case CONNECTIONS -> load.connections();
            case PACKET_RATE -> load.packetsPerSecond();
            case KILOBYTES_PER_SECOND -> load.bytesPerSecond() < 0 ? -1 : load.bytesPerSecond() / 1000.0;
            case CPU -> load.cpuPercent();
            case MEMORY -> load.memoryPercent();
            case LOAD_AVERAGE -> load.loadAverage();
        };
    }

    /**
     * Candidate {@code i}'s value, or -1 when unknown; when tracing, the value is noted under
     * {@code method}, or that the candidate is left out.
     */
    double read(Candidates c, int i, QueryContext q, String method) {
        double v = of(c.state(i).load());
        if (q.tracing()) {
            q.trace.note(method, c.get(i).name() + ": " + describe(v) + (v < 0 ? ", left out" : ""));
        }
        return v;
    }

    /** {@code v} with its unit, or that it is unknown. */
    String describe(double v) {
        if (v < 0) {
            return key() + " unknown";
        }
        return (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v)) + " " + unit;
    }

    /** As the configuration writes it: {@code connections}, {@code packet-rate}, ... */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
        return key();
    }

    /** The metric the configuration names {@code key}; an error lists the known ones. */
    public static LoadMetric ofKey(String key) {
        for (LoadMetric m : values()) {
            if (m.key().equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown load metric '" + key + "'; known: " + keys());
    }

    static String keys() {
        return String.join(", ", Arrays.stream(values()).map(LoadMetric::key).toList());
    }
}
