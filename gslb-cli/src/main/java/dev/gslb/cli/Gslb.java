package dev.gslb.cli;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gslb} command. */
@Command(name = "gslb", mixinStandardHelpOptions = true, version = "gslb 0.1.0",
        description = "Authoritative GSLB / smart-DNS server.",
        subcommands = {ServeCommand.class, ZoneCommand.class, TopologyCommand.class, LdnsCommand.class,
                HealthCommand.class, ResolveCommand.class, ConfigCommand.class, PeerCommand.class, CommandLine.HelpCommand.class})
public final class Gslb {
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Gslb());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof java.io.IOException) { // an unreachable server: say so, no stack trace
                commandLine.getErr().println("gslb: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        System.exit(cli.execute(args));
    }

    /** The installation folder: set by the ./gslb wrapper, else the working directory. */
    static Path home() {
        String home = System.getProperty("gslb.home");
        return Path.of(home == null ? "." : home).toAbsolutePath().normalize();
    }
}
