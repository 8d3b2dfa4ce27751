package dev.gslb.cli;

import dev.gslb.api.PersistenceCleared;
import dev.gslb.api.PersistenceView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "persist",
        description = "Persistence entries (wide IPs with a persistence-ttl): the virtual server each client network"
                + " is kept on, until when.",
        subcommands = {PersistCommand.ListEntries.class, PersistCommand.Clear.class})
final class PersistCommand {
    @Command(
            name = "list",
            description = "The live entries, by wide IP and network: server, expiry (viewer role).",
            exitCodeListHeading = Manual.EXIT_HEADING,
            exitCodeList = {Manual.OK, Manual.FAILED, Manual.USAGE},
            footerHeading = Manual.EXAMPLES,
            footer = {
                "  gslb persist list%n  gslb persist list --wide-ip www.example.com --limit 50 --json",
                Manual.ADMIN
            })
    static final class ListEntries implements Callable<Integer> {
        @Option(names = "--wide-ip", paramLabel = "NAME", description = "Only this wide IP's entries.")
        String wideIp;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "1000",
                description = "At most N entries (1..10000, default ${DEFAULT-VALUE}); the total is counted anyway.")
        int limit;

        @Option(
                names = "--json",
                description = "Print JSON: {total, limit, entries: [{wideIp, network, server, expires}]}.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String q = "/persist?limit=" + limit + (wideIp == null ? "" : "&wide-ip=" + LdnsCommand.enc(wideIp));
            return AdminReply.print(admin.client().get(q), json, PersistenceView.class, v -> {
                if (v.entries().isEmpty()) {
                    System.out.println("no persistence entries" + (wideIp == null ? "" : " of " + wideIp));
                    return;
                }
                String row = "%-32s %-40s %-20s %s%n";
                System.out.printf(row, "WIDE IP", "NETWORK", "SERVER", "EXPIRES");
                for (PersistenceView.Entry e : v.entries()) {
                    System.out.printf(row, e.wideIp(), e.network(), e.server(), e.expires());
                }
                System.out.println(
                        v.total() > v.entries().size()
                                ? v.entries().size() + " of " + v.total() + " entries (--limit N shows more)"
                                : v.total() + " entries");
            });
        }
    }

    @Command(
            name = "clear",
            description = "Forget entries, so the methods decide those networks' next answers (operator role). The"
                    + " peers that share the entries forget them too.",
            exitCodeListHeading = Manual.EXIT_HEADING,
            exitCodeList = {Manual.OK, Manual.FAILED, Manual.USAGE},
            footerHeading = Manual.EXAMPLES,
            footer = {
                "  gslb persist clear                             every entry%n"
                        + "  gslb persist clear --wide-ip www.example.com   every network of one wide IP%n"
                        + "  gslb persist clear --wide-ip www.example.com --ldns 198.51.100.7%n"
                        + "                                                the network of 198.51.100.7",
                Manual.ADMIN
            })
    static final class Clear implements Callable<Integer> {
        @Option(names = "--wide-ip", paramLabel = "NAME", description = "Only this wide IP's entries.")
        String wideIp;

        @Option(
                names = "--ldns",
                paramLabel = "ADDR",
                converter = ArgumentTypes.Ip.class,
                description = "Only the entry of this address's network (cut to persistence-prefix-v4/-v6).")
        String ldns;

        @Option(names = "--json", description = "Print JSON: {cleared, wideIp, network}.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            List<String> q = new ArrayList<>();
            if (wideIp != null) {
                q.add("wide-ip=" + LdnsCommand.enc(wideIp));
            }
            if (ldns != null) {
                q.add("ldns=" + LdnsCommand.enc(ldns));
            }
            String path = "/persist/clear" + (q.isEmpty() ? "" : "?" + String.join("&", q));
            return AdminReply.print(admin.client().post(path, ""), json, PersistenceCleared.class, c -> {
                String of = (c.wideIp() == null ? "every wide IP" : c.wideIp())
                        + (c.network() == null ? "" : ", network " + c.network());
                System.out.println("cleared " + c.cleared() + " entries of " + of
                        + (c.cleared() > 0 ? "; the peers forget them too" : ""));
            });
        }
    }
}
