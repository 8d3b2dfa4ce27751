package dev.gslb.cli;

import dev.gslb.api.Reloaded;
import dev.gslb.config.ConfigLoader;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.TopologyException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "config",
        description = "Configuration tools.",
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Reload.class})
final class ConfigCommand {
    @Command(
            name = "check",
            description = "Validate a YAML configuration (and its zone files); errors are file:line: message.")
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        public Integer call() {
            try {
                var c = ConfigLoader.load(file);
                var t = c.loadTopology().table();
                System.out.printf(
                        "%s: OK: %d zone(s), %d wide IP(s), %d data center(s), topology %d regions," + " %d prefixes%n",
                        file,
                        c.zones().size(),
                        c.wideIps().size(),
                        c.dataCenters().size(),
                        t.regions().size(),
                        t.prefixCount());
                return 0;
            } catch (SettingsException e) {
                System.err.println(e.getMessage());
                return 1;
            } catch (TopologyException e) {
                System.err.println(ServeCommand.TOPOLOGY_REFUSED + "\n" + e.getMessage());
                return 1;
            }
        }
    }

    @Command(
            name = "reload",
            description = "Make the running server re-read its configuration (also: kill -HUP). "
                    + "A configuration that does not load changes nothing.")
    static final class Reload implements Callable<Integer> {
        @Mixin
        AdminOption admin;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().post("/config/reload", "{}"),
                    json,
                    Reloaded.class,
                    r -> System.out.println("reloaded: " + r.zones() + " zone(s), " + r.wideIps() + " wide IP(s)"));
        }
    }
}
