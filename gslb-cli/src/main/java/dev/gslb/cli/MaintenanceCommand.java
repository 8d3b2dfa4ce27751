package dev.gslb.cli;

import dev.gslb.api.Json;
import dev.gslb.api.RuntimeChange;
import dev.gslb.api.RuntimeChanged;
import dev.gslb.api.RuntimeStatesView;
import dev.gslb.settings.SettingsModule;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Maintenance at run time (docs/operator-guide.md "Take something out of service"):
 * {@code gslb disable|drain|enable KIND NAME}, and {@code gslb maintenance} to list what is set.
 * The pair agrees: a change made on one instance reaches its peers.
 */
final class MaintenanceCommand {
    private MaintenanceCommand() {}

    /** KIND NAME and the options every change takes. */
    abstract static class Change implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "KIND", description = "datacenter, link, vs, pool, member or wideip.")
        String kind;

        @Parameters(index = "1", paramLabel = "NAME", description = "Its configured name; a member is POOL/SERVER.")
        String name;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        abstract String action();

        String reason() {
            return null;
        }

        Duration lasting() {
            return null;
        }

        boolean force() {
            return false;
        }

        @Override
        public Integer call() throws Exception {
            Duration d = lasting();
            String body =
                    Json.write(new RuntimeChange(kind, name, reason(), d == null ? null : d.toSeconds(), force()));
            return AdminReply.print(
                    admin.client().post("/runtime/" + action(), body),
                    json,
                    RuntimeChanged.class,
                    MaintenanceCommand::human);
        }
    }

    /** The options of disable and drain. */
    abstract static class TakeOut extends Change {
        @Option(
                names = "--reason",
                paramLabel = "TEXT",
                description = "Why (shown by health, resolve --explain, audit).")
        String reason;

        @Option(
                names = "--for",
                paramLabel = "DURATION",
                description = "Enable again by itself after this long (30m, 2h, 1d).")
        String lasting;

        @Option(names = "--force", description = "Even when a pool or wide IP is left without an enabled member.")
        boolean force;

        @Override
        String reason() {
            return reason;
        }

        @Override
        Duration lasting() {
            return lasting == null ? null : SettingsModule.duration(lasting);
        }

        @Override
        boolean force() {
            return force;
        }
    }

    @Command(
            name = "disable",
            description = "Take a data center, link, server, pool, member or wide IP out of service.")
    static final class Disable extends TakeOut {
        @Override
        String action() {
            return "disable";
        }
    }

    @Command(
            name = "drain",
            description = "No new clients for it; networks that persistence already sends there keep it until their"
                    + " persistence ends.")
    static final class Drain extends TakeOut {
        @Override
        String action() {
            return "drain";
        }
    }

    @Command(name = "enable", description = "Put a disabled or drained target back into service.")
    static final class Enable extends Change {
        @Override
        String action() {
            return "enable";
        }
    }

    @Command(name = "maintenance", description = "What is disabled or drained now, by whom, since when and why.")
    static final class ListStates implements Callable<Integer> {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/runtime"), json, RuntimeStatesView.class, v -> {
                System.out.println("runtime states generation " + v.generation()
                        + (v.origin().isEmpty() ? "" : " (made on " + v.origin() + ")"));
                if (v.states().isEmpty()) {
                    System.out.println("everything is enabled");
                }
                String row = "%-10s %-28s %-9s %-12s %-20s %-20s %s%n";
                if (!v.states().isEmpty()) {
                    System.out.printf(row, "KIND", "NAME", "STATE", "BY", "AT", "UNTIL", "REASON");
                }
                for (RuntimeStatesView.Entry e : v.states()) {
                    System.out.printf(
                            row,
                            e.kind(),
                            e.name(),
                            e.state(),
                            e.by(),
                            e.at(),
                            e.until() == null ? "-" : e.until(),
                            e.reason());
                }
            });
        }
    }

    private static void human(RuntimeChanged c) {
        if (c.before().equals(c.after())) {
            System.out.println(c.kind() + " " + c.name() + " was already " + c.after());
        } else {
            System.out.println(c.kind() + " " + c.name() + ": " + c.before() + " -> " + c.after()
                    + " (runtime states generation " + c.generation() + ", sent to the peers)");
        }
        if (!c.after().equals("enabled")) {
            System.out.println("it got " + c.answersLastMinute() + " answers in the last minute: "
                    + (c.after().equals("drained") ? "new clients go elsewhere" : "they go elsewhere"));
        } else {
            System.out.println("the methods may answer it again from now on");
        }
        if (c.warning() != null) {
            System.out.println("warning: " + c.warning());
        }
    }
}
