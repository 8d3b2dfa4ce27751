package dev.gslb.cli;

import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.xbill.DNS.Name;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "zone", description = "Zone file tools.", subcommands = ZoneCommand.Check.class)
final class ZoneCommand {

    @Command(
            name = "check",
            description = "Validate an RFC 1035 zone file; problems are printed as file:line: message.")
    static final class Check implements Callable<Integer> {
        @Parameters(
                paramLabel = "FILE",
                description = "Zone file; the origin is the file name without .zone unless --origin.")
        Path file;

        @Option(names = "--origin", paramLabel = "NAME", description = "Zone origin (apex).")
        String origin;

        @Override
        public Integer call() throws Exception {
            try {
                Zone zone = ZoneFile.load(file, origin == null ? null : Name.fromString(origin, Name.root));
                System.out.printf(
                        "%s: zone %s OK, %d records, SOA serial %d%n",
                        file, zone.origin(), zone.recordCount(), zone.soa().getSerial());
                return 0;
            } catch (ZoneException e) {
                e.problems().forEach(p -> System.err.println(p));
                System.err.printf(
                        "%s: %d problem(s); the zone was not loaded%n",
                        file, e.problems().size());
                return 1;
            }
        }
    }
}
