package dev.gslb.cli;

import dev.gslb.api.DnssecChange;
import dev.gslb.api.DnssecChanged;
import dev.gslb.api.DnssecView;
import dev.gslb.api.DsView;
import dev.gslb.api.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "dnssec",
        description = "The signed zones' keys: their state and rolls, the DS records for the parent.",
        subcommands = {
            DnssecCommand.Status.class,
            DnssecCommand.Ds.class,
            DnssecCommand.Roll.class,
            DnssecCommand.Submitted.class
        })
final class DnssecCommand {
    private DnssecCommand() {}

    /** ZONE, --json and the admin options every zone command takes. */
    abstract static class OnZone implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ZONE", description = "The signed zone.")
        String zone;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        /** Posts {@code kind} (or none) for the zone to {@code path} and prints the steps to come. */
        int post(String path, String kind) throws Exception {
            return AdminReply.print(
                    admin.client().post(path, Json.write(new DnssecChange(zone, kind))),
                    json,
                    DnssecChanged.class,
                    DnssecCommand::steps);
        }
    }

    @Command(name = "status", description = "Each signed zone: signed or why not, its keys, the next step of a roll.")
    static final class Status implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "ZONE", description = "Only this zone.")
        String zone;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/dnssec"), json, DnssecView.class, v -> {
                int shown = 0;
                for (DnssecView.Zone z : v.zones()) {
                    if (zone != null && !sameZone(zone, z.zone())) {
                        continue;
                    }
                    shown++;
                    System.out.println(z.zone() + "  " + (z.signed() ? "signed" : "NOT signed") + ", " + z.algorithm()
                            + ", " + z.keys() + ", keys in " + z.folder());
                    if (z.why() != null) {
                        System.out.println("  " + (z.signed() ? "last error: " : "why: ") + z.why());
                    }
                    String row = "  %-5s %-4s %-3s %-10s %-4s %s%n";
                    System.out.printf(row, "TAG", "ROLE", "ALG", "STATE", "CDS", "TIMINGS");
                    for (DnssecView.Key k : z.keyList()) {
                        StringBuilder t = new StringBuilder();
                        k.timings()
                                .forEach((tag, at) ->
                                        t.append(tag).append(' ').append(at).append("  "));
                        System.out.printf(
                                row,
                                k.tag(),
                                k.role(),
                                k.algorithm(),
                                k.state(),
                                k.cds() ? "yes" : "",
                                t.toString().trim() + (k.given() ? "  (given: " + k.file() + ")" : ""));
                    }
                    if (z.next() != null) {
                        System.out.println("  next: " + z.next() + (z.nextAt() == null ? "" : " at " + z.nextAt()));
                    }
                }
                if (shown == 0) {
                    System.out.println(
                            zone == null ? "no zone is signed (no zone has dnssec:)" : zone + " is not signed here");
                }
            });
        }
    }

    @Command(
            name = "ds",
            description = "The DS records (SHA-256) the parent zone should hold, as zone-file lines for the registrar.")
    static final class Ds extends OnZone {
        @Option(names = "--dnskey", description = "Print the DNSKEY record beside each DS.")
        boolean dnskey;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().get("/dnssec/ds?zone=" + LdnsCommand.enc(zone)), json, DsView.class, v -> {
                        if (v.records().isEmpty()) {
                            System.out.println("; " + v.zone() + " has no key for the parent yet (gslb dnssec status)");
                        }
                        for (DsView.Ds d : v.records()) {
                            System.out.println("; " + d.role() + " " + d.tag()
                                    + (d.from() == null ? "" : ": give it to the parent from " + d.from()));
                            System.out.println(d.ds());
                            if (dnskey) {
                                System.out.println(d.dnskey());
                            }
                        }
                    });
        }
    }

    @Command(
            name = "roll",
            description = "Start a roll now: zsk by pre-publication, ksk (or the csk) by double-KSK; each step waits"
                    + " for the TTLs.")
    static final class Roll extends OnZone {
        @Parameters(index = "1", paramLabel = "ksk|zsk", description = "Which key.")
        String kind;

        @Override
        public Integer call() throws Exception {
            return post("/dnssec/roll", kind);
        }
    }

    @Command(
            name = "submitted",
            description = "Say the parent has the new KSK's DS: the old KSK leaves after the DS TTL and the"
                    + " propagation delay.")
    static final class Submitted extends OnZone {
        @Override
        public Integer call() throws Exception {
            return post("/dnssec/submitted", null);
        }
    }

    private static void steps(DnssecChanged c) {
        System.out.println(c.zone() + ": written; what comes:");
        c.steps().forEach(s -> System.out.println("  " + s));
    }

    private static boolean sameZone(String a, String b) {
        String x = a.endsWith(".") ? a : a + ".";
        String y = b.endsWith(".") ? b : b + ".";
        return x.equalsIgnoreCase(y);
    }
}
