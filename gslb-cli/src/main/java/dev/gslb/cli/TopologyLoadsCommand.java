package dev.gslb.cli;

import dev.gslb.api.TopologyLoads;
import dev.gslb.api.TopologyReport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * What was loaded at run time (`topology load`, `import bind-views`), and taking it back: `loads`
 * lists it, `unload NAME` takes one load away, `revert` all of them. Each change is the next
 * configuration generation: kept across restarts and sent to the peers, as a load is.
 */
final class TopologyLoadsCommand {
    private TopologyLoadsCommand() {}

    @Command(
            name = "loads",
            description = "What was loaded at run time over the configured lists: name, prefixes, who, when, from"
                    + " which file.")
    static final class Loads implements Callable<Integer> {
        @Mixin
        TopologyCommand.AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/topology/loads"), admin.json, TopologyLoads.class, r -> {
                if (r.loads().isEmpty()) {
                    System.out.println("nothing was loaded at run time: the table is the configured one");
                    return;
                }
                System.out.printf(
                        "%-20s %8s  %-20s %-12s %-12s %-24s %s%n",
                        "NAME", "PREFIXES", "REGIONS", "BY", "INSTANCE", "AT", "SOURCE");
                for (TopologyLoads.Load l : r.loads()) {
                    System.out.printf(
                            "%-20s %8d  %-20s %-12s %-12s %-24s %s%n",
                            l.name(),
                            l.prefixes(),
                            String.join(",", l.regions().keySet()),
                            dash(l.by()),
                            dash(l.instance()),
                            dash(l.at()),
                            l.source());
                }
                System.out.println("later loads apply over earlier ones; `gslb topology unload NAME` takes one away,"
                        + " `gslb topology revert` all");
            });
        }

        private static String dash(String s) {
            return s == null ? "-" : s;
        }
    }

    @Command(
            name = "unload",
            description = "Take a run-time load away: the table is rebuilt from the configured lists and the other"
                    + " loads (what it hid comes back). Kept across restarts, sent to the peers.")
    static final class Unload implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The load's name (`gslb topology loads` lists them).")
        String name;

        @Mixin
        TopologyChangeText.Options change;

        @Mixin
        TopologyCommand.AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            String path =
                    "/topology/unload" + change.query() + "&name=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
            return AdminReply.print(
                    admin.client().post(path, ""),
                    admin.json,
                    TopologyReport.class,
                    r -> TopologyChangeText.print("unloaded " + name + ":", "unloading " + name, r));
        }
    }

    @Command(
            name = "revert",
            description = "Drop every run-time load: back to the configured table. Kept across restarts, sent to the"
                    + " peers.")
    static final class Revert implements Callable<Integer> {
        @Mixin
        TopologyChangeText.Options change;

        @Mixin
        TopologyCommand.AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().post("/topology/revert" + change.query(), ""),
                    admin.json,
                    TopologyReport.class,
                    r -> TopologyChangeText.print(
                            "reverted to the configured table:", "reverting to the configured table", r));
        }
    }
}
