package dev.gslb.probe.load;

import dev.gslb.settings.Setting;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx's {@code stub_status} page: its {@code Active connections: N} line is the server's
 * connections (those of the clients, the idle keep-alive ones included, as nginx counts them).
 */
public final class NginxStatus implements LoadSource {
    /** {@code nginx: URL} under a virtual server's {@code load:}. */
    public static final Setting<URI> SETTING = Setting.of(
                    "nginx", String.class, null, "an nginx stub_status page's URL: connections")
            .map(text -> StatusPage.address("nginx", text), null);

    private static final Pattern ACTIVE =
            Pattern.compile("^Active connections:\\s*(\\d{1,18})\\s*$", Pattern.MULTILINE);

    private final StatusPage page;

    public NginxStatus(StatusPage page) {
        this.page = page;
    }

    public NginxStatus(URI uri) {
        this(new StatusPage(uri, StatusPage.DEFAULT_MAX_BYTES, null));
    }

    @Override
    public Set<Metric> metrics() {
        return Set.of(Metric.CONNECTIONS);
    }

    @Override
    public LoadReading read(Duration timeout) throws IOException {
        String text = page.read(timeout);
        Matcher m = ACTIVE.matcher(text);
        if (!m.find()) {
            throw new IOException(page.uri() + ": no 'Active connections: N' line (is it nginx's stub_status?)");
        }
        return new LoadReading(Map.of(Metric.CONNECTIONS, (double) Long.parseLong(m.group(1))), 0);
    }

    @Override
    public String describe() {
        return "nginx " + page.uri();
    }

    @Override
    public void close() {
        page.close();
    }
}
