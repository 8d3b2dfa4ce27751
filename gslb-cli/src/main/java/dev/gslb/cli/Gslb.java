package dev.gslb.cli;

import dev.gslb.settings.SettingsException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/** The {@code gslb} command. */
@Command(
        name = "gslb",
        mixinStandardHelpOptions = true,
        versionProvider = GslbVersion.class,
        description = "Authoritative GSLB / smart-DNS server.",
        exitCodeListHeading = Manual.EXIT_HEADING,
        exitCodeList = {
            Manual.OK,
            Manual.FAILED,
            Manual.USAGE,
            "70:serve: no DNS listener is left serving (systemd's Restart=on-failure starts it again)"
        },
        footerHeading = Manual.EXAMPLES,
        footer = {Manual.GSLB_EXAMPLES, Manual.ADMIN})
public final class Gslb {
    /**
     * The subcommands, in the order the help lists them. Added in code, not in the annotation: a
     * command line builds only the one it runs (see {@link #commandLine(String[])}).
     */
    static final List<Class<?>> COMMANDS = List.of(
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
            PersistCommand.class,
            DnssecCommand.class,
            CompletionCommand.class,
            AotTraining.class,
            Gslb.Help.class);

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The configuration of the server the commands talk to (default: $GSLB_CONFIG, else"
                    + " /etc/gslb/gslb.yaml when it exists); `gslb --config FILE serve` runs it.")
    Path config;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description = "The state folder the server was started with (serve --state-dir): the commands send the"
                    + " token in DIR/admin.token (default: $GSLB_STATE_DIR).")
    Path stateDir;

    public static void main(String[] args) {
        if ("serve".equals(commandWord(args))) {
            JitPriority.lowerSoon(); // a client command's one C1 thread: no gain there
        }
        // Netty's leak detection samples buffers on the query path; in production it is off unless
        // asked for (-Dio.netty.leakDetection.level=simple). Tests keep Netty's default (on).
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        // Netty's buffer events for Java Flight Recorder: the first pooled chunk (a server's first
        // TCP connection) loaded JFR's event machinery, 60-70 ms on that connection. Off unless
        // asked for (-Dio.netty.jfr.enabled=true); a recording still has the JVM's own events.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        System.exit(commandLine(args).execute(args));
    }

    /** The whole command tree (help, completion, man pages, tests). */
    static CommandLine commandLine() {
        return commandLine(COMMANDS);
    }

    /**
     * The tree with only the subcommand {@code args} run, when they name one that needs no other
     * (not help, completion or a typo, which list the rest): picocli reads every command's
     * annotations by reflection when the tree is built, most of a short command's start-up.
     */
    static CommandLine commandLine(String[] args) {
        String word = commandWord(args);
        for (Class<?> c : COMMANDS) {
            String name = c.getAnnotation(Command.class).name();
            if (name.equals(word) && c != Help.class && c != CompletionCommand.class) {
                return commandLine(List.of(c));
            }
        }
        return commandLine();
    }

    /** The first word of {@code args} that is not an option of the root command: the subcommand's name, or null. */
    static String commandWord(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--config") || a.equals("--state-dir")) {
                i++; // its value
            } else if (!a.startsWith("-")) {
                return a;
            }
        }
        return null;
    }

    private static CommandLine commandLine(List<Class<?>> commands) {
        CommandLine cli = new CommandLine(new Gslb());
        commands.forEach(cli::addSubcommand);
        addHelpOption(cli);
        Manual.renderSections(cli);
        cli.setParameterExceptionHandler(Gslb::oneLine);
        cli.setExecutionStrategy(parsed -> {
            if (parsed.commandSpec().userObject() instanceof Gslb root) {
                for (ParseResult p = parsed; p != null; p = p.subcommand()) {
                    tellAdminOptions(p.commandSpec(), root);
                }
            }
            return new CommandLine.RunLast().execute(parsed);
        });
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

    /**
     * A bad or missing argument: the error, a suggestion for a misspelt one, and where the help is;
     * exit 2 (EX_USAGE of the shells). Not the whole usage, which pushes the error off the screen.
     */
    private static int oneLine(ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        PrintWriter err = c.getErr();
        err.println("gslb: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("see '" + c.getCommandSpec().qualifiedName() + " --help'");
        err.flush();
        return c.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Every AdminOption mixed into {@code spec}, however deep, learns gslb's own options. */
    private static void tellAdminOptions(CommandSpec spec, Gslb root) {
        for (CommandSpec m : spec.mixins().values()) {
            if (m.userObject() instanceof AdminOption a) {
                a.root = root;
            }
            tellAdminOptions(m, root);
        }
    }

    /** The gslb command above {@code spec}, whose --config and --state-dir every subcommand honours. */
    static Gslb root(CommandSpec spec) {
        CommandSpec s = spec;
        while (s != null && s.parent() != null) {
            s = s.parent();
        }
        return s != null && s.userObject() instanceof Gslb g ? g : null;
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
                    throw new ParameterException(
                            spec.commandLine(),
                            "no command '" + name + "' under '"
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
