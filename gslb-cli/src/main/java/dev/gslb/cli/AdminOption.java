package dev.gslb.cli;

import dev.gslb.config.admin.AdminSettings;
import dev.gslb.settings.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * `--admin ADDR`, `--token-file FILE` and `--config FILE`: the admin API of the running server a
 * subcommand talks to (see {@link AdminTarget} for the order they are looked in). ADDR is written
 * as for `serve --admin` (127.0.0.1:8053, [::1]:8053) or as a URL.
 */
final class AdminOption {
    @Option(
            names = "--admin",
            paramLabel = "ADDR",
            description = "Admin API of the running server: host:port or URL (default: $GSLB_ADMIN, else admin.listen"
                    + " of the configuration, else 127.0.0.1:8053).")
    String url;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description = "The server's admin token (default: admin.token in --state-dir, else $GSLB_TOKEN_FILE, else"
                    + " $GSLB_STATE_DIR/admin.token, else admin.token-file of the configuration).")
    Path tokenFile;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The configuration the server runs: its admin.listen and admin.token-file say where the"
                    + " server is (default: gslb --config, $GSLB_CONFIG, else /etc/gslb/gslb.yaml when it exists).")
    Path config;

    /** The gslb command this runs under: its --config and --state-dir count too (set by {@link Gslb}). */
    Gslb root;

    /** --config of this command, else gslb's own; null when neither was given. */
    Path explicitConfig() {
        return config != null ? config : root == null ? null : root.config;
    }

    AdminClient client() throws IOException {
        return target().client();
    }

    /** The server this command talks to, from its options, gslb's own, the environment and the configuration. */
    AdminTarget target() throws IOException {
        return AdminTarget.resolve(
                url, tokenFile, root == null ? null : root.stateDir, ConfigLocation.find(explicitConfig()));
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
