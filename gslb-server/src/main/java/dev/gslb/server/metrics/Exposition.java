package dev.gslb.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The server's meters and what GET /metrics writes of them (Prometheus' text format). Every meter
 * is named {@code gslb_...} ({@link MetricPrefix}). Counters are made up front, so that the query
 * path only adds; the text leaves out a counter that has not counted yet, and a family left with
 * nothing, unless {@code ?all=1} asks for every series: an instance that never dropped a packet
 * shows no {@code gslb_dns_dropped_total}, not twelve zeros. Gauges are always written: a 0 there
 * is a state (a peer down), not an absence.
 */
public final class Exposition {
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public Exposition(BuildInfo build) {
        registry.config().meterFilter(new MetricPrefix()); // before any meter registers
        build.register(registry.getPrometheusRegistry());
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Runs {@code refresh} before each scrape: for gauges whose series come and go (peers, servers). */
    public void beforeScrape(Runnable refresh) {
        beforeScrape.add(refresh);
    }

    /** The text of GET /metrics: every series when {@code all}, else without counters still at zero. */
    public String text(boolean all) {
        beforeScrape.forEach(Runnable::run);
        MetricSnapshots snapshots = registry.getPrometheusRegistry().scrape();
        List<MetricSnapshot> out = new ArrayList<>(snapshots.size());
        for (MetricSnapshot s : snapshots) {
            if (all || !(s instanceof CounterSnapshot c)) {
                out.add(s);
                continue;
            }
            var counted =
                    c.getDataPoints().stream().filter(p -> p.getValue() != 0).toList();
            if (!counted.isEmpty()) {
                out.add(new CounterSnapshot(c.getMetadata(), counted));
            }
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream(32 << 10);
        try {
            writer.write(text, new MetricSnapshots(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return text.toString(StandardCharsets.UTF_8);
    }
}
