package dev.gslb.probe.load;

import dev.gslb.settings.ByteSize;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One series of a Prometheus text endpoint (an exporter's {@code /metrics}): the sample of
 * {@code metric} whose labels include every one of {@code labels}, read as the metric {@code as}
 * names. No series matching, or more than one, is an error: which one was meant is not for us to
 * guess. The endpoint is asked for its plain-text format.
 */
public final class PrometheusMetric implements LoadSource {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    static final Setting<String> METRIC = Setting.of("metric", String.class, null, "the metric's name")
            .derived("required")
            .check("a metric name", n -> {
                if (!NAME.matcher(n).matches()) {
                    throw new IllegalArgumentException("'" + n + "' is not a Prometheus metric name");
                }
            });
    static final Setting<Map<String, String>> LABELS =
            Setting.mapping("labels", String.class, "labels the series must have (others may follow)");
    static final Setting<Metric> AS = Setting.of(
                    "as", String.class, null, "what it is: connections, cpu, memory, load-average, bytes, ...")
            .map(Metric::ofKey, null)
            .derived("required");

    /** What {@code prometheus:} says. */
    public record Spec(URI url, String metric, Map<String, String> labels, Metric as, ByteSize maxSize) {
        public static final SettingsTable<Spec> SETTINGS =
                SettingsTable.of(Spec.class, StatusPage.URL, METRIC, LABELS, AS, StatusPage.MAX_SIZE);
    }

    /** {@code prometheus: {url, metric, labels, as}} under a virtual server's {@code load:}. */
    public static final Setting<Spec> SETTING = Setting.of(
            "prometheus", Spec.class, null, "one series of a Prometheus text endpoint as one metric (keys below)");

    private final StatusPage page;
    private final String metric;
    private final Map<String, String> labels;
    private final Metric as;

    public PrometheusMetric(StatusPage page, String metric, Map<String, String> labels, Metric as) {
        if (metric == null || as == null) {
            throw new IllegalArgumentException("prometheus needs 'metric:' (the series' name) and 'as:' (what it is)");
        }
        this.page = page;
        this.metric = metric;
        this.labels = Map.copyOf(labels);
        this.as = as;
    }

    public static PrometheusMetric of(Spec spec) {
        // text/plain: an endpoint that also speaks protobuf or OpenMetrics answers in the classic text format
        return new PrometheusMetric(
                StatusPage.of("prometheus", spec.url(), spec.maxSize(), "text/plain;version=0.0.4"),
                spec.metric(),
                spec.labels(),
                spec.as());
    }

    @Override
    public Set<Metric> metrics() {
        return Set.of(as);
    }

    @Override
    public LoadReading read(Duration timeout) throws IOException {
        String text = page.read(timeout);
        Double found = null;
        int matches = 0;
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (!line.startsWith(metric)
                    || line.length() == metric.length()
                    || " \t{".indexOf(line.charAt(metric.length())) < 0) {
                continue;
            }
            Sample s = sample(line, lineNo);
            if (s.labels().entrySet().containsAll(labels.entrySet())) {
                matches++;
                found = s.value();
            }
        }
        if (matches == 0) {
            throw new IOException(page.uri() + ": no series " + series());
        }
        if (matches > 1) {
            throw new IOException(page.uri() + ": " + matches + " series match " + series() + "; name more labels");
        }
        if (!Double.isFinite(found) || found < 0) {
            throw new IOException(page.uri() + ": " + series() + " is " + found + ", not a load");
        }
        return new LoadReading(Map.of(as, found), 0);
    }

    private String series() {
        return metric + (labels.isEmpty() ? "" : labels.toString());
    }

    private record Sample(Map<String, String> labels, double value) {}

    /** One sample line: {@code name{label="value",...} value [timestamp]}. */
    private Sample sample(String line, int lineNo) throws IOException {
        Map<String, String> found = new HashMap<>();
        int i = metric.length();
        if (line.charAt(i) == '{') {
            i++;
            while (true) {
                while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == ',')) {
                    i++;
                }
                if (i < line.length() && line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                    throw bad(lineNo, "a label without =\"value\"");
                }
                String name = line.substring(i, eq).strip();
                StringBuilder value = new StringBuilder();
                for (i = eq + 2; ; i++) {
                    if (i >= line.length()) {
                        throw bad(lineNo, "a label value without its closing quote");
                    }
                    char c = line.charAt(i);
                    if (c == '"') {
                        i++;
                        break;
                    }
                    if (c == '\\' && i + 1 < line.length()) {
                        char e = line.charAt(++i);
                        value.append(e == 'n' ? '\n' : e);
                    } else {
                        value.append(c);
                    }
                }
                found.put(name, value.toString());
            }
        }
        List<String> rest = List.of(line.substring(i).strip().split("[ \t]+"));
        if (rest.isEmpty() || rest.getFirst().isEmpty()) {
            throw bad(lineNo, "no value");
        }
        try {
            return new Sample(found, Double.parseDouble(rest.getFirst()));
        } catch (NumberFormatException e) {
            throw bad(lineNo, "'" + HaproxyStats.abbreviated(rest.getFirst()) + "' is not a number");
        }
    }

    private IOException bad(int lineNo, String what) {
        return new IOException(page.uri() + " line " + lineNo + ": " + what);
    }

    @Override
    public String describe() {
        return "prometheus " + page.uri() + " " + series() + " as " + as.key();
    }

    @Override
    public void close() {
        page.close();
    }
}
