package dev.gslb.cli;

import dev.gslb.api.Json;
import dev.gslb.api.LdnsImport;
import dev.gslb.api.LdnsImported;
import dev.gslb.config.bigip.BigIpImport;
import dev.gslb.config.bigip.TmshException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "import",
        description = "Bring in what an F5 BIG-IP DNS or 3-DNS box or BIND views knew (migration).",
        subcommands = {ImportCommand.Ldns.class, ImportCommand.BindViewsFile.class, ImportCommand.BigIp.class})
final class ImportCommand {
    @Command(
            name = "ldns",
            description = "Read a 3-DNS 'ldns { ... path { ... } }' dump into the proximity table (all or nothing).")
    static final class Ldns implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "The dump (the shape `gslb ldns list --format 3dns` prints).")
        Path file;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            var reply = admin.client().post("/ldns/import", Json.write(new LdnsImport(file.toString(), text)));
            return AdminReply.print(reply, json, LdnsImported.class, r -> {
                System.out.printf("imported %d LDNS, %d paths from %s%n", r.ldns(), r.paths(), file);
                if (!r.skipped().isEmpty()) {
                    System.out.printf("left out (%d):%n", r.skipped().size());
                    r.skipped().forEach(s -> System.out.println("  " + s));
                }
            });
        }
    }

    @Command(
            name = "bind-views",
            description = "Turn BIND's acl and view ... match-clients blocks into topology regions and records, loaded"
                    + " into the running server (all or nothing) and shared with its peers.")
    static final class BindViewsFile implements Callable<Integer> {
        private static final java.util.regex.Pattern INCLUDE =
                java.util.regex.Pattern.compile("(?m)^\\s*include\\s+\"([^\"]+)\"\\s*;");

        @Parameters(paramLabel = "FILE", description = "named.conf (the files it includes are read too).")
        Path file;

        @Option(
                names = "--map",
                paramLabel = "VIEW=DC",
                description = "The data center a view stands for (repeatable); default: the data center named like"
                        + " the view.")
        java.util.Map<String, String> map = new java.util.LinkedHashMap<>();

        @Option(
                names = "--name",
                paramLabel = "NAME",
                defaultValue = "bind-views",
                description = "The load's name (default: bind-views); importing again under a name in service replaces"
                        + " that load, `gslb topology unload NAME` takes it away.")
        String name;

        @Mixin
        TopologyChangeText.Options change;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            java.util.Map<String, String> files = new java.util.LinkedHashMap<>();
            read(file, files);
            var reply = admin.client()
                    .post(
                            "/topology/import/bind-views" + change.query(),
                            Json.write(new dev.gslb.api.BindViewsImport(files, map, name)));
            return AdminReply.print(reply, json, dev.gslb.api.BindViewsImported.class, r -> {
                System.out.printf(
                        "%s %d view(s) from %s as %s:%n",
                        r.topology().dryRun() ? "would import" : "imported",
                        r.views().size(),
                        file,
                        name);
                for (var v : r.views()) {
                    System.out.printf(
                            "  view %-12s -> region %-16s %6d prefixes -> %s%n",
                            v.name(),
                            v.region(),
                            v.prefixes(),
                            v.dataCenter() == null ? "no data center (no record)" : v.dataCenter());
                }
                if (!r.notTranslated().isEmpty()) {
                    System.out.printf(
                            "not translated (%d):%n", r.notTranslated().size());
                    r.notTranslated().forEach(s -> System.out.println("  " + s));
                }
                TopologyChangeText.print(r.topology().change(), r.topology().dryRun());
                if (r.topology().dryRun()) {
                    System.out.println("dry run: nothing changed");
                }
            });
        }

        /** The file and, in order, each one it includes (relative paths from named.conf's folder), at most 100. */
        private void read(Path f, java.util.Map<String, String> into) throws java.io.IOException {
            if (into.containsKey(f.toString()) || into.size() >= 100 || !Files.isRegularFile(f)) {
                return; // a missing include is reported by the server with its file and line
            }
            String text = Files.readString(f, StandardCharsets.UTF_8);
            into.put(f.toString(), text);
            var m = INCLUDE.matcher(text);
            while (m.find()) {
                Path inc = Path.of(m.group(1));
                read(inc.isAbsolute() ? inc : file.toAbsolutePath().getParent().resolve(inc), into);
            }
        }
    }

    @Command(
            name = "bigip",
            description = "Turn an F5 BIG-IP DNS (GTM) configuration (bigip_gtm.conf, `tmsh list gtm`) into a"
                    + " configuration, a topology file and a report of every object and setting: mapped, mapped"
                    + " with a difference, or not supported. Works offline; the result is checked as"
                    + " `gslb config check` would.",
            exitCodeListHeading = Manual.EXIT_HEADING,
            exitCodeList = {Manual.OK, Manual.FAILED, Manual.USAGE},
            footerHeading = Manual.EXAMPLES,
            footer = {
                "  gslb import bigip bigip_gtm.conf --out /etc/gslb/imported --zone db.example.com%n"
                        + "  gslb import bigip bigip_gtm.conf --dry-run"
            })
    static final class BigIp implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "bigip_gtm.conf, or what `tmsh list gtm` printed.")
        Path file;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                defaultValue = "bigip-import",
                description = "Where gslb.yaml, bigip.topology, made-up zones and import-report.txt go"
                        + " (default: bigip-import).")
        Path out;

        @Option(names = "--dry-run", description = "Print the whole report; write nothing.")
        boolean dryRun;

        @Option(names = "--force", description = "Replace the files of an earlier import in DIR.")
        boolean force;

        @Option(
                names = "--zone",
                paramLabel = "FILE",
                description = "A zone file of yours (repeatable), its origin its $ORIGIN or its name without .zone;"
                        + " wide IPs no given zone holds get a made-up zone (SOA and NS) to replace.")
        java.util.List<Path> zones = new java.util.ArrayList<>();

        @Option(
                names = "--topology-data",
                paramLabel = "PATH",
                description = "Topology lists that F5's isp and country records map onto (repeatable; default: the"
                        + " shipped china-operator-ip lists).")
        java.util.List<Path> topologyData = new java.util.ArrayList<>();

        @Override
        public Integer call() throws Exception {
            java.util.Map<org.xbill.DNS.Name, String> given = new java.util.LinkedHashMap<>();
            for (Path z : zones) {
                if (!Files.isRegularFile(z)) {
                    System.err.println(z + ": --zone names no zone file");
                    return 1;
                }
                org.xbill.DNS.Name origin = origin(z);
                String had = given.put(origin, z.toAbsolutePath().normalize().toString());
                if (had != null) {
                    System.err.println(z + ": a second zone file of " + origin + " (the first: " + had + ")");
                    return 1;
                }
            }
            if (!dryRun && Files.exists(out) && !Files.isDirectory(out)) {
                System.err.println(out + ": --out is a file, not a folder");
                return 1;
            }
            if (!dryRun && Files.exists(out.resolve("gslb.yaml")) && !force) {
                System.err.println(out.resolve("gslb.yaml")
                        + " exists (an earlier import?): give --force to replace it," + " or another --out");
                return 1;
            }
            java.util.List<Path> data = topologyData.isEmpty() ? shippedLists() : topologyData;
            var options = new BigIpImport.Options(
                    given,
                    data.stream()
                            .map(d -> d.toAbsolutePath().normalize().toString())
                            .toList(),
                    regions(data));
            BigIpImport.Result r;
            try {
                r = BigIpImport.read(file, options);
            } catch (TmshException e) {
                System.err.println(e.getMessage());
                return 1;
            } catch (java.io.IOException e) {
                System.err.println(file + ": cannot read: " + e.getMessage());
                return 1;
            }
            System.out.print(r.report().text(dryRun));
            if (r.problem() != null) {
                System.err.println(file + ": " + r.problem() + "; nothing written");
                return 1;
            }
            // written and checked aside first: a refusal or a failed write leaves --out as it was
            Path parent = dryRun ? null : out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Path staged = parent == null
                    ? Files.createTempDirectory("gslb-bigip")
                    : Files.createTempDirectory(parent, ".bigip-import-");
            try {
                java.util.List<String> files = write(r, staged);
                try {
                    var cfg = dev.gslb.config.ConfigLoader.load(staged.resolve("gslb.yaml"));
                    cfg.loadTopology().table(); // as `gslb config check` does
                    System.out.printf(
                            "config check: OK: %d data centers, %d virtual servers, %d wide IPs%n",
                            cfg.dataCenters().size(),
                            cfg.health().size(),
                            cfg.wideIps().size());
                } catch (dev.gslb.settings.SettingsException e) {
                    String message = e.getMessage().replace(staged.toString(), out.toString());
                    boolean theirs = given.values().stream().anyMatch(message::contains);
                    System.err.println("config check refused what the import wrote, so nothing is written: " + message
                            + (theirs
                                    ? " (a zone file you gave)"
                                    : " (a fault of the import: please report it with the F5 lines involved)"));
                    return 1;
                }
                if (dryRun) {
                    System.out.println("dry run: nothing written");
                    return 0;
                }
                for (String f : files) {
                    Path to = out.resolve(f);
                    Files.createDirectories(to.getParent());
                    if (f.startsWith("monitor-programs/") && Files.exists(to)) {
                        System.out.println("kept " + to + " (a program already there is never replaced)");
                        continue;
                    }
                    Files.move(staged.resolve(f), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    System.out.println("wrote " + to);
                }
                System.out.println("next: add instance: and dns: listen: to " + out.resolve("gslb.yaml")
                        + ", then `gslb config check` it and `gslb resolve NAME --ldns IP` for resolvers you know");
                return 0;
            } finally {
                dev.gslb.probe.store.StateFile.deleteTree(staged);
            }
        }

        /** The files of the import, written into {@code dir}: their paths inside it. */
        private static java.util.List<String> write(BigIpImport.Result r, Path dir) throws java.io.IOException {
            java.util.List<String> written = new java.util.ArrayList<>();
            java.util.Map<String, String> files = new java.util.LinkedHashMap<>();
            files.put("gslb.yaml", r.config());
            if (r.topology() != null) {
                files.put("bigip.topology", r.topology());
            }
            files.putAll(r.madeFiles());
            files.put("import-report.txt", r.report().text(true));
            for (var f : files.entrySet()) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
                if (f.getKey().startsWith("monitor-programs/")) {
                    Files.setPosixFilePermissions(
                            p, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                written.add(f.getKey());
            }
            return written;
        }

        /** The zone file's $ORIGIN, else its name without ".zone". */
        private static org.xbill.DNS.Name origin(Path zone) throws java.io.IOException {
            String text = Files.readString(zone, StandardCharsets.UTF_8);
            var m = java.util.regex.Pattern.compile("(?mi)^\\$ORIGIN\\s+(\\S+)").matcher(text);
            String o = m.find() ? m.group(1) : zone.getFileName().toString().replaceFirst("\\.zone$", "");
            return org.xbill.DNS.Name.fromString(o, org.xbill.DNS.Name.root);
        }

        /** The china-operator-ip lists beside the installation (the checkout's or the package's), if there. */
        private static java.util.List<Path> shippedLists() {
            for (Path p : java.util.List.of(
                    Gslb.home().resolve("topology-data/china-operator-ip"),
                    Path.of("/usr/share/gslb/topology-data/china-operator-ip"))) {
                if (Files.isDirectory(p)) {
                    return java.util.List.of(p);
                }
            }
            return java.util.List.of();
        }

        /** The regions the lists load: each list's name without extension (NAME6 joins NAME when both are there). */
        private static java.util.Set<String> regions(java.util.List<Path> data) throws java.io.IOException {
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (Path d : data) {
                java.util.List<Path> files;
                if (Files.isDirectory(d)) {
                    try (var list = Files.list(d)) {
                        files = list.filter(Files::isRegularFile).toList();
                    }
                } else {
                    files = java.util.List.of(d);
                }
                for (Path f : files) {
                    String n = f.getFileName().toString();
                    if (n.startsWith("LICENSE") || n.startsWith("README") || n.endsWith(".md") || n.equals("stat")) {
                        continue;
                    }
                    out.add(n.replaceFirst("\\.[^.]*$", ""));
                }
            }
            // NAME6 joins NAME when both are loaded, as the loader does; alone it is a region of its own
            out.removeIf(n -> n.endsWith("6") && out.contains(n.substring(0, n.length() - 1)));
            return out;
        }
    }
}
