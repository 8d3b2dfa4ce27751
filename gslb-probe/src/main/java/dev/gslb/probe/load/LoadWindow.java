package dev.gslb.probe.load;

import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * The window of one load source: its last readings, gauges averaged over them and counters turned
 * into rates. Each pair of successive readings gives one rate per counter; a counter that went back
 * or a changed epoch is a restart: that pair gives no rate (never a burst or a zero), the rates
 * before it still count. A failed read
 * empties the window: its metrics are unknown at once and the next readings start afresh. A gauge
 * is unknown while the latest reading lacks it (a metric that vanished does not linger).
 */
final class LoadWindow {
    private record Sample(LoadReading reading, long at) {}

    private final Set<Metric> metrics;
    private final int samples;
    private final ArrayDeque<Sample> readings = new ArrayDeque<>();
    private final Map<Metric, ArrayDeque<Double>> rates = new EnumMap<>(Metric.class);

    /**
     * @param metrics what the source reads (anything else a reading holds is ignored)
     * @param samples how many readings the window covers
     */
    LoadWindow(Set<Metric> metrics, int samples) {
        this.metrics = Set.copyOf(metrics);
        this.samples = Math.max(1, samples);
        for (Metric m : metrics) {
            if (m.counter()) {
                rates.put(m, new ArrayDeque<>());
            }
        }
    }

    /** One reading taken at {@code nowMillis}. */
    synchronized void read(LoadReading r, long nowMillis) {
        Sample last = readings.peekLast();
        if (last != null && r.epoch() == last.reading().epoch() && nowMillis > last.at()) {
            double seconds = (nowMillis - last.at()) / 1000.0;
            for (Map.Entry<Metric, ArrayDeque<Double>> e : rates.entrySet()) {
                double before = last.reading().get(e.getKey());
                double now = r.get(e.getKey());
                if (before >= 0 && now >= before) { // one that went back restarted: no rate from this pair
                    add(e.getValue(), (now - before) / seconds);
                }
            }
        }
        readings.addLast(new Sample(r, nowMillis));
        while (readings.size() > samples) {
            readings.removeFirst();
        }
    }

    private void add(ArrayDeque<Double> window, double rate) {
        window.addLast(rate);
        while (window.size() > samples) {
            window.removeFirst();
        }
    }

    /** The source did not answer, or answered garbage: everything it gave is unknown now. */
    synchronized void failed() {
        readings.clear();
        rates.values().forEach(ArrayDeque::clear);
    }

    /** {@code m} over the window (a counter as a rate per second), or -1 when unknown. */
    synchronized double value(Metric m) {
        if (!metrics.contains(m) || readings.isEmpty()) {
            return -1;
        }
        if (m.counter()) {
            ArrayDeque<Double> window = rates.get(m);
            if (window.isEmpty() || readings.getLast().reading().get(m) < 0) {
                return -1;
            }
            return window.stream().mapToDouble(Double::doubleValue).average().orElse(-1);
        }
        if (readings.getLast().reading().get(m) < 0) {
            return -1;
        }
        return readings.stream()
                .mapToDouble(s -> s.reading().get(m))
                .filter(v -> v >= 0)
                .average()
                .orElse(-1);
    }
}
