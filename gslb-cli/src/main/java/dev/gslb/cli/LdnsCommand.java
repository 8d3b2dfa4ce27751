package dev.gslb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.cli.admin.AdminClient;
import dev.gslb.cli.admin.Json;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ldns", description = "The LDNS proximity table: what each data center measured to each resolver.",
        subcommands = {LdnsCommand.ListCmd.class, LdnsCommand.Show.class, LdnsCommand.Probe.class,
                LdnsCommand.Delete.class})
final class LdnsCommand {
    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static void printEntry(JsonNode e) {
        System.out.printf("%s  state %s, probe_protocol %s, ttl %d s, last used %s%n", e.path("address").asText(),
                e.path("state").asText(), e.path("probeProtocol").asText("none"), e.path("ttl").asLong(),
                e.path("lastUsed").asText());
        if (e.path("paths").isEmpty()) {
            System.out.println("  no paths yet" + (e.path("retryAt").isNull() ? "" : "; unprobeable until "
                    + e.path("retryAt").asText()));
        }
        for (JsonNode p : e.path("paths")) {
            System.out.printf("  %-8s rtt %9d us  completion %6.2f %%  hops %2d  %-7s measured %s by %s%s%n",
                    p.path("datacenter").asText(), p.path("rttMicros").asLong(), p.path("completion").asInt() / 100.0,
                    p.path("hops").asInt(), p.path("protocol").asText(), p.path("measuredAt").asText(),
                    p.path("measuredBy").asText(), p.path("fresh").asBoolean() ? "" : "  (stale)");
        }
    }

    /** --json prints JSON, --format 3dns the 3DNS `ldns { ... }` blocks, the default a table. */
    static final class Output {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Option(names = "--format", paramLabel = "3dns", description = "Print the 3DNS ldns { ... path { ... } } shape.")
        String format;

        String query() {
            return "3dns".equals(format) ? "&format=3dns" : "";
        }

        boolean raw() {
            return json || "3dns".equals(format);
        }
    }

    static int show(AdminClient.Reply reply, Output out, java.util.function.Consumer<JsonNode> human) throws Exception {
        if (out.raw() && reply.ok()) {
            System.out.print(reply.body());
            return 0;
        }
        return AdminReply.print(reply, out.json, human);
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
            return show(admin.client().get(q), out, r -> {
                for (JsonNode e : r) {
                    printEntry(e);
                }
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
            return show(admin.client().get("/ldns/show?ip=" + enc(ip) + out.query()), out, LdnsCommand::printEntry);
        }
    }

    @Command(name = "probe", description = "Probe an LDNS now (rate cap and exclusions still apply) and print the result.")
    static final class Probe implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Option(names = "--protocol", paramLabel = "P", description = "Only this protocol: dns_dot, dns_rev, udp, tcp or icmp.")
        String protocol;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String q = "/ldns/probe?ip=" + enc(ip) + (protocol == null ? "" : "&protocol=" + enc(protocol));
            return AdminReply.print(admin.client().post(q, ""), json, r -> {
                if (r.path("probeable").asBoolean()) {
                    System.out.printf("%s answered %s: rtt %d us, completion %.2f %% (%d of %d), hops %d%n",
                            r.path("ip").asText(), r.path("protocol").asText(), r.path("rttMicros").asLong(),
                            r.path("completion").asInt() / 100.0, r.path("replies").asInt(), r.path("sent").asInt(),
                            r.path("hops").asInt());
                } else {
                    System.out.printf("%s answered no probe (%d sent): unprobeable%n", r.path("ip").asText(),
                            r.path("sent").asInt());
                }
                printEntry(r.path("entry"));
            });
        }
    }

    @Command(name = "delete", description = "Remove an LDNS from the proximity table.")
    static final class Delete implements Callable<Integer> {
        @Parameters(paramLabel = "IP")
        String ip;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            AdminClient.Reply r = admin.client().post("/ldns/delete?ip=" + enc(ip), "");
            JsonNode n = Json.MAPPER.readTree(r.body());
            if (r.status() == 404) {
                System.err.println(ip + " is not in the proximity table");
                return 1;
            }
            return AdminReply.print(r, false, x -> System.out.println("deleted " + n.path("ip").asText()));
        }
    }
}
