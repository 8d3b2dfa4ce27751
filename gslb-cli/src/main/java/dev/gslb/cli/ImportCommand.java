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
        description = "Bring in what an F5 3-DNS box knew (migration).",
        subcommands = ImportCommand.Ldns.class)
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
}
