package dev.gslb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "resolve", description = "Explain the answer a wide IP gives an LDNS: candidates, health, paths or "
        + "scores, which method decided and why, the answer and its TTL. Raises no probe.")
final class ResolveCommand implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "The wide IP, e.g. www.example.com")
    String name;

    @Option(names = "--ldns", paramLabel = "IP", required = true, description = "The resolver asking.")
    String ldns;

    @Option(names = "--ecs", paramLabel = "CIDR", description = "An EDNS client subnet sent with the query.")
    String ecs;

    @Option(names = "--type", paramLabel = "A|AAAA", defaultValue = "A")
    String type;

    @Option(names = "--explain", description = "Print every step (the default; kept for F5 habits).")
    boolean explain;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    AdminOption admin;

    @Override
    public Integer call() throws Exception {
        String q = "/resolve?name=" + LdnsCommand.enc(name) + "&ldns=" + LdnsCommand.enc(ldns) + "&type="
                + LdnsCommand.enc(type) + (ecs == null ? "" : "&ecs=" + LdnsCommand.enc(ecs));
        return AdminReply.print(admin.client().get(q), json, r -> {
            System.out.printf("%s %s asked by LDNS %s%s%n", r.path("name").asText(), r.path("type").asText(),
                    r.path("ldns").asText(), r.path("ecs").isNull() ? "" : " for client subnet " + r.path("ecs").asText());
            for (JsonNode step : r.path("steps")) {
                String topic = step.path("topic").asText();
                System.out.printf("  %-24s %s%n", topic.equals("tier") ? "" : topic, step.path("detail").asText());
            }
            JsonNode by = r.path("decidedBy");
            if (by.isNull() || by.isMissingNode()) {
                System.out.println("no pool decided: failure behaviour " + r.path("failure").asText());
            } else {
                System.out.printf("decided by %s (%s tier of pool %s): %s%n", by.path("method").asText(),
                        by.path("tier").asText(), by.path("pool").asText(), by.path("outcome").asText());
            }
            for (JsonNode a : r.path("answers")) {
                System.out.printf("answer: %s %s%s, TTL %d%n", r.path("type").asText(), a.path("address").asText(),
                        a.path("datacenter").isNull() ? "" : " (" + a.path("server").asText() + " in "
                                + a.path("datacenter").asText() + ")", r.path("ttl").asLong());
            }
            if (!r.path("ecs").isNull()) {
                System.out.println("ECS scope: /" + r.path("ecsScope").asInt());
            }
        });
    }
}
