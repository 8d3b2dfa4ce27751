package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.LdnsView;
import dev.gslb.api.ProbeReport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "ldns",
        description = "The LDNS proximity table: what each data center measured to each resolver.",
        subcommands = {
            LdnsCommand.ListCmd.class,
            LdnsCommand.Show.class,
            LdnsCommand.Probe.class,
            LdnsCommand.Delete.class
        })
final class LdnsCommand {
    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static void printEntry(LdnsView e) {
        System.out.printf(
                "%s  state %s, probe_protocol %s, ttl %d s, last used %s%s%n",
                e.address(),
                e.state(),
                e.probeProtocol() == null ? "none" : e.probeProtocol(),
                e.ttl(),
                e.lastUsed(),
                e.keptDataCenter() == null ? "" : ", kept " + e.keptDataCenter());
        if (e.paths().isEmpty()) {
            System.out.println("  no paths yet" + (e.retryAt() == null ? "" : "; unprobeable until " + e.retryAt()));
        }
        for (LdnsView.PathView p : e.paths()) {
            System.out.printf(
                    "  %-8s rtt %9d us  jitter %s  completion %6.2f %%  hops %2d  %-7s measured %s by %s%s%n",
                    p.dataCenter(),
                    p.rttMicros(),
                    p.jitterMicros() == 0 ? "        -" : String.format("%6.1f ms", p.jitterMicros() / 1000.0),
                    p.completion() / 100.0,
                    p.hops(),
                    p.protocol(),
                    p.measuredAt(),
                    p.measuredBy(),
                    p.fresh() ? "" : "  (stale)");
        }
    }

    /** --json prints JSON, --format 3dns the 3DNS `ldns { ... }` blocks, the default a table. */
    static final class Output {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Option(
                names = "--format",
                paramLabel = "3dns",
                description = "Print the 3DNS ldns { ... path { ... } } shape.")
        String format;

        String query() {
            return "3dns".equals(format) ? "&format=3dns" : "";
        }

        boolean raw() {
            return json || "3dns".equals(format);
        }
    }

    static <T> int show(AdminClient.Reply reply, Output out, TypeReference<T> type, Consumer<T> human)
            throws Exception {
        if (out.raw() && reply.ok()) {
            System.out.print(reply.body());
            return 0;
        }
        return AdminReply.print(reply, out.json, type, human);
    }

    @Command(name = "list", description = "Every LDNS with its paths.")
    static final class ListCmd implements Callable<Integer> {
        @Option(names = "--dc", paramLabel = "DC", description = "Only LDNS with a path from this data center.")
        String dc;

        @Mixin
        Output out;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String q = "/ldns/list?x=1" + (dc == null ? "" : "&dc=" + enc(dc)) + out.query();
            return show(admin.client().get(q), out, new TypeReference<List<LdnsView>>() {}, r -> {
                r.forEach(LdnsCommand::printEntry);
                System.out.println(r.size() + " LDNS");
            });
        }
    }

    @Command(name = "show", description = "One LDNS with its paths.")
    static final class Show implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Mixin
        Output out;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return show(
                    admin.client().get("/ldns/show?ip=" + enc(ip) + out.query()),
                    out,
                    new TypeReference<LdnsView>() {},
                    LdnsCommand::printEntry);
        }
    }

    @Command(
            name = "probe",
            description = "Probe an LDNS now (rate cap and exclusions still apply) and print the result.")
    static final class Probe implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Option(
                names = "--protocol",
                paramLabel = "P",
                description = "Only this protocol: dns_dot, dns_rev, udp, tcp or icmp.")
        String protocol;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String q = "/ldns/probe?ip=" + enc(ip) + (protocol == null ? "" : "&protocol=" + enc(protocol));
            return AdminReply.print(admin.client().post(q, ""), json, ProbeReport.class, r -> {
                if (r.probeable()) {
                    System.out.printf(
                            "%s answered %s: rtt %d us, completion %.2f %% (%d of %d), hops %d%n",
                            r.ip(),
                            r.protocol(),
                            r.rttMicros(),
                            r.completion() / 100.0,
                            r.replies(),
                            r.sent(),
                            r.hops());
                } else {
                    System.out.printf("%s answered no probe (%d sent): unprobeable%n", r.ip(), r.sent());
                }
                if (r.entry() != null) {
                    printEntry(r.entry());
                }
            });
        }
    }

    @Command(name = "delete", description = "Remove an LDNS from the proximity table.")
    static final class Delete implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Option(names = "--json", description = "Print JSON: {\"removed\": true|false, \"what\": IP}.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            AdminClient.Reply r = admin.client().post("/ldns/delete?ip=" + enc(ip), "");
            return AdminReply.removed(r, json, "deleted", ip + " is not in the proximity table");
        }
    }
}
