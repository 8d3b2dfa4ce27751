package dev.gslb.probe.load;

import java.util.EnumMap;
import java.util.Map;

/**
 * One reading of a load source: the metrics it read this time (a metric it could not read is
 * absent, never zero), and its epoch (a counter restart: a rebooted agent's uptime went back; 0
 * where the source cannot tell).
 */
public record LoadReading(Map<Metric, Double> values, long epoch) {
    public LoadReading {
        values = values.isEmpty() ? Map.of() : new EnumMap<>(values);
        for (Map.Entry<Metric, Double> e : values.entrySet()) {
            double v = e.getValue();
            if (!Double.isFinite(v) || v < 0) {
                throw new IllegalArgumentException(e.getKey().key() + " read as " + v + ": not a load");
            }
        }
    }

    /** The value read of {@code m}, or -1 when it was not read. */
    public double get(Metric m) {
        Double v = values.get(m);
        return v == null ? -1 : v;
    }
}
