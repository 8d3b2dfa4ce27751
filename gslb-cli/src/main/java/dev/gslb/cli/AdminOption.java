package dev.gslb.cli;

import dev.gslb.cli.admin.AdminClient;
import dev.gslb.cli.admin.AdminToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** `--admin URL` and `--token-file FILE`: the admin API of the running server a subcommand talks to. */
final class AdminOption {
    @Option(names = "--admin", paramLabel = "URL", defaultValue = "http://127.0.0.1:8053",
            description = "Admin API of the running server (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--token-file", paramLabel = "FILE", defaultValue = "${env:GSLB_TOKEN_FILE}",
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
        return new AdminClient(url, file == null ? null : AdminToken.read(file));
    }
}
