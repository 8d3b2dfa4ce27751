package dev.gslb.cli;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.settings.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * `--admin ADDR` and `--token-file FILE`: the admin API of the running server a subcommand talks
 * to. ADDR is written as for `serve --admin` (127.0.0.1:8053, [::1]:8053) or as a URL.
 */
final class AdminOption {
    @Option(
            names = "--admin",
            paramLabel = "ADDR",
            defaultValue = "${GSLB_ADMIN:-127.0.0.1:8053}",
            description =
                    "Admin API of the running server: host:port or URL (default: $GSLB_ADMIN, else 127.0.0.1:8053).")
    String url;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            defaultValue = "${env:GSLB_TOKEN_FILE}",
            description = "The server's admin token (default: $GSLB_TOKEN_FILE, else var/admin.token of this"
                    + " installation when it exists).")
    Path tokenFile;

    AdminClient client() throws IOException {
        Path file = tokenFile;
        if (file == null && System.getProperty("gslb.token-file") != null) { // an embedding (tests) says where
            file = Path.of(System.getProperty("gslb.token-file"));
        }
        if (file == null) {
            Path local = Path.of(System.getProperty("gslb.home", "."), "var", "admin.token");
            file = Files.isReadable(local) ? local : null;
        }
        return new AdminClient(baseUrl(url), file == null ? null : AdminToken.read(file));
    }

    /** "127.0.0.1:8053", "[::1]", "localhost:6080" or "http://...": the URL the client uses. */
    static String baseUrl(String text) {
        String bad = "--admin " + text + ": expected host:port, [v6]:port or http://host:port";
        String t = text.strip();
        if (t.startsWith("https://")) {
            throw new IllegalArgumentException("--admin " + text + ": the admin API speaks plain HTTP");
        }
        t = t.startsWith("http://") ? t.substring("http://".length()) : t;
        t = t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
        try {
            URI u = new URI("http://" + t);
            if (u.getHost() == null || !u.getRawPath().isEmpty() || u.getRawQuery() != null) {
                throw new IllegalArgumentException(bad);
            }
            return "http://" + u.getHost() + ":" + (u.getPort() < 0 ? AdminSettings.DEFAULT_PORT : u.getPort());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(bad);
        }
    }

    /** The same forms as {@link #baseUrl}, as the address `serve` listens on (an IP, not a name). */
    static InetSocketAddress listenAddress(String text) {
        String url = baseUrl(text);
        return HostPort.parse(url.substring("http://".length()), AdminSettings.DEFAULT_PORT);
    }
}
