package dev.gslb.cli;

import dev.gslb.api.Explanation;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "resolve",
        description = "Explain the answer a wide IP gives an LDNS: candidates, health, paths or "
                + "scores, which method decided and why, the answer and its TTL. Raises no probe.",
        exitCodeListHeading = Manual.EXIT_HEADING,
        exitCodeList = {Manual.OK, Manual.FAILED, Manual.USAGE},
        footerHeading = Manual.EXAMPLES,
        footer = {
            "  gslb resolve www.example.com --ldns 198.51.100.53%n"
                    + "  gslb resolve www.example.com --ldns 2001:db8::53 --type AAAA \\%n"
                    + "      --ecs 203.0.113.0/24 --json",
            Manual.ADMIN
        })
final class ResolveCommand implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "The wide IP, e.g. www.example.com")
    String name;

    @Option(
            names = "--ldns",
            paramLabel = "IP",
            required = true,
            converter = ArgumentTypes.Ip.class,
            description = "The resolver asking.")
    String ldns;

    @Option(names = "--ecs", paramLabel = "CIDR", description = "An EDNS client subnet sent with the query.")
    String ecs;

    @Option(
            names = "--type",
            paramLabel = "A|AAAA",
            defaultValue = "A",
            converter = ArgumentTypes.AddressRecord.class,
            description = "The record type asked (default: A).")
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
        return AdminReply.print(admin.client().get(q), json, Explanation.class, r -> {
            System.out.printf(
                    "%s %s asked by LDNS %s%s%n",
                    r.name(), r.type(), r.ldns(), r.ecs() == null ? "" : " for client subnet " + r.ecs());
            for (var step : r.steps()) {
                System.out.printf("  %-24s %s%n", step.topic().equals("tier") ? "" : step.topic(), step.detail());
            }
            Explanation.DecidedBy by = r.decidedBy();
            if (by == null) {
                System.out.println("no pool decided: failure behaviour " + r.failure());
            } else {
                System.out.printf(
                        "decided by %s (%s tier of pool %s): %s%n",
                        by.method(), by.tier(), by.pool(), by.outcome().name().toLowerCase(java.util.Locale.ROOT));
            }
            for (var a : r.answers()) {
                System.out.printf(
                        "answer: %s %s%s, TTL %d%n",
                        r.type(),
                        a.address(),
                        a.dataCenter() == null ? " (fallback IP)" : " (" + a.server() + " in " + a.dataCenter() + ")",
                        r.ttl());
            }
            if (r.ecs() != null) {
                System.out.println("ECS scope: /" + r.ecsScope());
            }
        });
    }
}
