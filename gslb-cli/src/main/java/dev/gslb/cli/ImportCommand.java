package dev.gslb.cli;

import dev.gslb.api.Json;
import dev.gslb.api.LdnsImport;
import dev.gslb.api.LdnsImported;
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
        description = "Bring in what an F5 3-DNS box or BIND views knew (migration).",
        subcommands = {ImportCommand.Ldns.class, ImportCommand.BindViewsFile.class})
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
}
