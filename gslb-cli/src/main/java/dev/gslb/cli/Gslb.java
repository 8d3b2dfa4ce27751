package dev.gslb.cli;

import dev.gslb.settings.SettingsException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The {@code gslb} command. */
@Command(
        name = "gslb",
        mixinStandardHelpOptions = true,
        versionProvider = GslbVersion.class,
        description = "Authoritative GSLB / smart-DNS server.",
        subcommands = {
            ServeCommand.class,
            ZoneCommand.class,
            TopologyCommand.class,
            LdnsCommand.class,
            ImportCommand.class,
            HealthCommand.class,
            ResumeCommand.class,
            LinkCommand.class,
            StatsCommand.class,
            ResolveCommand.class,
            ConfigCommand.class,
            PeerCommand.class,
            MaintenanceCommand.Disable.class,
            MaintenanceCommand.Drain.class,
            MaintenanceCommand.Enable.class,
            MaintenanceCommand.ListStates.class,
            TokenCommand.class,
            AuditCommand.class,
            Gslb.Help.class
        })
public final class Gslb {
    public static void main(String[] args) {
        // Netty's leak detection samples buffers on the query path; in production it is off unless
        // asked for (-Dio.netty.leakDetection.level=simple). Tests keep Netty's default (on).
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        System.exit(commandLine().execute(args));
    }

    /** The command tree: every subcommand answers --help; a user error is one line, not a stack trace. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Gslb());
        addHelpOption(cli);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IOException
                    || e instanceof UncheckedIOException
                    || e instanceof SettingsException
                    || e instanceof IllegalArgumentException) { // unreachable server, bad address, bad file
                commandLine.getErr().println("gslb: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cli;
    }

    private static void addHelpOption(CommandLine c) {
        CommandSpec spec = c.getCommandSpec();
        if (spec.findOption("--help") == null) {
            spec.addOption(OptionSpec.builder("-h", "--help")
                    .usageHelp(true)
                    .description("Show this help.")
                    .build());
        }
        c.getSubcommands().values().forEach(Gslb::addHelpOption);
    }

    /** `gslb help [COMMAND...]`: the page of any command, however deep ("gslb help topology lookup"). */
    @Command(name = "help", helpCommand = true, description = "Show the help of a command: gslb help topology lookup.")
    static final class Help implements Runnable {
        @Parameters(paramLabel = "COMMAND", arity = "0..*")
        List<String> path = List.of();

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            CommandLine c = spec.parent().commandLine();
            for (String name : path) {
                CommandLine sub = c.getSubcommands().get(name);
                if (sub == null) {
                    throw new IllegalArgumentException("no command '" + name + "' under '"
                            + c.getCommandSpec().qualifiedName() + "'; it has "
                            + c.getSubcommands().keySet());
                }
                c = sub;
            }
            c.usage(c.getOut());
        }
    }

    /** The installation folder: set by the ./gslb wrapper, else the working directory. */
    static Path home() {
        String home = System.getProperty("gslb.home");
        return Path.of(home == null ? "." : home).toAbsolutePath().normalize();
    }
}
