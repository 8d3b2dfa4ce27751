package dev.gslb.cli;

import dev.gslb.api.Json;
import dev.gslb.api.TopologyListing;
import dev.gslb.api.TopologyLoad;
import dev.gslb.api.TopologyLookup;
import dev.gslb.api.TopologyReport;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.server.admin.TopologyApi;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.LiveTopology;
import dev.gslb.topology.load.RuntimeLoad;
import dev.gslb.topology.load.TopologyFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "topology",
        description = "The topology table: ISP CIDR lists -> regions -> data-center scores.",
        subcommands = {
            TopologyCommand.Load.class,
            TopologyCommand.Lookup.class,
            TopologyCommand.ListRegions.class,
            TopologyCommand.Reload.class,
            TopologyLoadsCommand.Loads.class,
            TopologyLoadsCommand.Unload.class,
            TopologyLoadsCommand.Revert.class
        })
final class TopologyCommand {
    /** Lists above this size get a progress bar while they are read and sent. */
    static final long PROGRESS_BAR_BYTES = 256 * 1024;

    /** `--admin URL` and `--json`, shared by the subcommands that print a server's answer. */
    static final class AdminOptions {
        @Mixin
        AdminOption admin;

        @Option(names = "--json", description = "Print JSON instead of a table.")
        boolean json;

        AdminClient client() throws java.io.IOException {
            return admin.client();
        }
    }

    static void printWarnings(List<String> warnings) {
        if (warnings.isEmpty()) {
            return;
        }
        System.out.println(warnings.size() + " warning(s) (duplicates and overlaps; the longest match decides):");
        warnings.stream().limit(10).forEach(w -> System.out.println("  " + w));
        if (warnings.size() > 10) {
            System.out.println("  ... (--json shows all)");
        }
    }

    @Command(
            name = "load",
            description = "Load CIDR lists, 3DNS topology files or APNIC stats into the running server, as a load"
                    + " of its own name (`topology loads`, `unload NAME`); kept across restarts, sent to the peers.")
    static final class Load implements Callable<Integer> {
        @Parameters(paramLabel = "FILE|DIR", arity = "1..*", description = "Files, or folders of files.")
        List<Path> paths;

        @Option(
                names = "--region",
                paramLabel = "NAME",
                description = "Region of every prefix loaded (default: file name).")
        String region;

        @Option(
                names = "--name",
                paramLabel = "NAME",
                description = "The load's name (default: the first file's or folder's name without extension); a"
                        + " load of a name in service replaces that load.")
        String name;

        @Mixin
        TopologyChangeText.Options change;

        @Mixin
        AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            Map<String, String> files = new LinkedHashMap<>();
            try {
                List<Path> list = TopologyFiles.expand(paths);
                long total = 0;
                for (Path p : list) {
                    total += Files.size(p);
                }
                try (ProgressBar bar = total >= PROGRESS_BAR_BYTES && !admin.json
                        ? new ProgressBarBuilder()
                                .setTaskName("reading")
                                .setInitialMax(total)
                                .setUnit(" KiB", 1024)
                                .setStyle(ProgressBarStyle.ASCII)
                                .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                                .build()
                        : null) {
                    for (Path p : list) {
                        files.put(p.toAbsolutePath().toString(), read(p, bar));
                    }
                }
            } catch (TopologyException e) {
                e.problems().forEach(System.err::println);
                return 1;
            }
            String as = name != null
                    ? name
                    : RuntimeLoad.nameOf(paths.getFirst().toAbsolutePath().toString());
            String body = Json.write(new TopologyLoad(region, files, as));
            AdminClient.Reply reply = admin.client().post("/topology/load" + change.query(), body);
            return AdminReply.print(
                    reply,
                    admin.json,
                    TopologyReport.class,
                    r -> TopologyChangeText.print(
                            "loaded " + files.size() + " file(s) as " + r.name() + ":", "loading " + as, r));
        }

        private static String read(Path p, ProgressBar bar) throws IOException, TopologyException {
            try (InputStream in = Files.newInputStream(p)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[16384];
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                    if (bar != null) {
                        bar.stepBy(n);
                    }
                }
                return TopologyFiles.decode(p.toString(), out.toByteArray());
            }
        }
    }

    @Command(name = "lookup", description = "Which region and data-center scores an address gets.")
    static final class Lookup implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Option(
                names = "--data",
                paramLabel = "DIR",
                description = "Build the table from these lists here, no server needed.")
        List<Path> data; // records and data centers from --config FILE (the AdminOption's; default: embedded)

        @Mixin
        AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            if (data != null) {
                Path config = admin.admin.explicitConfig();
                TopologyLookup r;
                try {
                    GslbConfig cfg =
                            config != null ? ConfigLoader.load(config) : ConfigLoader.loadEmbedded(Gslb.home());
                    LiveTopology.Spec spec = cfg.topology().spec();
                    LiveTopology local =
                            new LiveTopology(new LiveTopology.Spec(data, spec.records(), spec.dataCenters()));
                    r = TopologyApi.lookup(local.table(), ip);
                } catch (SettingsException | IllegalArgumentException e) {
                    System.err.println("gslb: " + e.getMessage());
                    return 2;
                } catch (TopologyException e) {
                    e.problems().forEach(System.err::println);
                    return 1;
                }
                return AdminReply.print(
                        new AdminClient.Reply(200, Json.write(r)), admin.json, TopologyLookup.class, Lookup::human);
            }
            AdminClient.Reply reply =
                    admin.client().get("/topology/lookup?ip=" + java.net.URLEncoder.encode(ip, StandardCharsets.UTF_8));
            return AdminReply.print(reply, admin.json, TopologyLookup.class, Lookup::human);
        }

        static void human(TopologyLookup r) {
            if (!r.matched()) {
                System.out.println(r.ip() + ": no match (topology makes no decision; the next method decides)");
                return;
            }
            System.out.printf("%s: region %s, prefix %s%n", r.ip(), r.region(), r.prefix());
            if (r.scores().isEmpty()) {
                System.out.println("  no records for this region (topology makes no decision)");
            }
            for (var s : r.scores()) {
                System.out.printf(
                        "  %-10s score %d%s%n",
                        s.dataCenter(), s.score(), s.dataCenter().equals(r.best()) ? "  <- answer" : "");
            }
        }
    }

    @Command(name = "list", description = "Regions with their prefix counts, and the records.")
    static final class ListRegions implements Callable<Integer> {
        @Mixin
        AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/topology/list"), admin.json, TopologyListing.class, r -> {
                System.out.printf("%-20s %8s %8s%n", "REGION", "IPv4", "IPv6");
                for (var g : r.regions()) {
                    System.out.printf("%-20s %8d %8d%n", g.name(), g.ipv4(), g.ipv6());
                }
                System.out.println("records (region -> data center, score; highest score wins):");
                for (var rec : r.records()) {
                    System.out.printf(
                            "  %-20s -> %-8s %6d   (%s)%n", rec.region(), rec.dataCenter(), rec.score(), rec.origin());
                }
                System.out.printf("%d prefixes, loaded at %s%n", r.prefixes(), r.loadedAt());
                printWarnings(r.warnings());
            });
        }
    }

    @Command(
            name = "reload",
            description = "Re-read the configured topology files; a failure keeps the table in service.")
    static final class Reload implements Callable<Integer> {
        @Mixin
        AdminOptions admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().post("/topology/reload", ""),
                    admin.json,
                    TopologyReport.class,
                    r -> TopologyChangeText.print("reloaded:", "reloading", r));
        }
    }
}
