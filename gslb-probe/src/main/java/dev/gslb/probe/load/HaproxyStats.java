package dev.gslb.probe.load;

import dev.gslb.settings.ByteSize;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * HAProxy's statistics page in CSV ({@code stats uri /stats}, read as {@code /stats;csv}): the
 * {@code BACKEND} row of one backend gives its current sessions ({@code scur}: connections), and
 * its server rows whose {@code status} is UP (a server going down, {@code UP 1/3}, still is; one
 * in maintenance, draining, or without a check is not) give the servers up behind it. Columns are
 * found by the header's names, not by position: HAProxy versions add columns.
 */
public final class HaproxyStats implements LoadSource {
    static final Setting<String> BACKEND = Setting.of(
                    "backend", String.class, null, "the backend (or listen section) read")
            .derived("required");

    /** What {@code haproxy:} says. */
    public record Spec(URI url, String backend, ByteSize maxSize) {
        public static final SettingsTable<Spec> SETTINGS =
                SettingsTable.of(Spec.class, StatusPage.URL, BACKEND, StatusPage.MAX_SIZE);
    }

    /** {@code haproxy: {url, backend}} under a virtual server's {@code load:}. */
    public static final Setting<Spec> SETTING = Setting.of(
            "haproxy", Spec.class, null, "HAProxy's CSV stats: connections and servers-up of a backend (keys below)");

    private final StatusPage page;
    private final String backend;

    public HaproxyStats(StatusPage page, String backend) {
        if (backend == null || backend.isBlank()) {
            throw new IllegalArgumentException("haproxy needs 'backend:' (the backend whose sessions are read)");
        }
        this.page = page;
        this.backend = backend;
    }

    public static HaproxyStats of(Spec spec) {
        return new HaproxyStats(StatusPage.of("haproxy", spec.url(), spec.maxSize(), null), spec.backend());
    }

    @Override
    public Set<Metric> metrics() {
        return Set.of(Metric.CONNECTIONS, Metric.SERVERS_UP);
    }

    @Override
    public LoadReading read(Duration timeout) throws IOException {
        String[] lines = page.read(timeout).split("\r?\n");
        if (lines.length == 0 || !lines[0].startsWith("# ")) {
            throw new IOException(page.uri() + ": not HAProxy's CSV stats (no '# pxname,svname,...' header)");
        }
        List<String> header = fields(lines[0].substring(2));
        int pxname = column(header, "pxname");
        int svname = column(header, "svname");
        int scur = column(header, "scur");
        int status = column(header, "status");
        Double sessions = null;
        int up = 0;
        for (int i = 1; i < lines.length; i++) {
            List<String> row = fields(lines[i]);
            if (row.size() <= Math.max(Math.max(pxname, svname), Math.max(scur, status))
                    || !row.get(pxname).equals(backend)) {
                continue;
            }
            String server = row.get(svname);
            if (server.equals("BACKEND")) {
                sessions = count(row.get(scur), "scur of backend " + backend);
            } else if (!server.equals("FRONTEND") && row.get(status).startsWith("UP")) {
                up++;
            }
        }
        if (sessions == null) {
            throw new IOException(page.uri() + ": no BACKEND row for backend '" + backend + "'");
        }
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.CONNECTIONS, sessions);
        values.put(Metric.SERVERS_UP, (double) up);
        return new LoadReading(values, 0);
    }

    private int column(List<String> header, String name) throws IOException {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IOException(page.uri() + ": the CSV header has no column '" + name + "'");
        }
        return i;
    }

    private double count(String text, String what) throws IOException {
        try {
            long n = Long.parseLong(text.strip());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IOException(page.uri() + ": " + what + " is '" + abbreviated(text) + "', not a count");
        }
    }

    /** One CSV line's fields; HAProxy quotes a field holding a comma or quote, doubling its quotes. */
    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        out.add(field.toString());
        return out;
    }

    /** Garbage quoted in an error, cut short: an error message is no place for a page. */
    static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    @Override
    public String describe() {
        return "haproxy " + page.uri() + " backend " + backend;
    }

    @Override
    public void close() {
        page.close();
    }
}
