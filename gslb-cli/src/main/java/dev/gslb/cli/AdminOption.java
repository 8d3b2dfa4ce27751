package dev.gslb.cli;

import dev.gslb.cli.admin.AdminClient;
import picocli.CommandLine.Option;

/** `--admin URL`: the admin API of the running server a subcommand talks to. */
final class AdminOption {
    @Option(names = "--admin", paramLabel = "URL", defaultValue = "http://127.0.0.1:8053",
            description = "Admin API of the running server (default: ${DEFAULT-VALUE}).")
    String url;

    AdminClient client() {
        return new AdminClient(url);
    }
}
