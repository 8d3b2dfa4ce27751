package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.AuditEntry;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "audit",
        description = "The audit log: who changed what on this instance, from where, and how it ended (operator role).")
final class AuditCommand implements Callable<Integer> {
    @Option(
            names = "--since",
            paramLabel = "DURATION",
            description = "Only the entries of the last DURATION: 30m, 12h, 7d (default: all that is kept).")
    String since;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "1000",
            description = "At most the newest N entries (1..10000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    AdminOption admin;

    @Override
    public Integer call() throws Exception {
        String query = "/audit?limit=" + limit + (since == null ? "" : "&since=" + LdnsCommand.enc(since));
        return AdminReply.print(admin.client().get(query), json, new TypeReference<List<AuditEntry>>() {}, r -> {
            for (AuditEntry e : r) {
                System.out.println(line(e));
            }
        });
    }

    /** "TIME WHO (ROLE) from SOURCE: METHOD ROUTE TARGET -> STATUS, before -> after | error". */
    static String line(AuditEntry e) {
        StringBuilder b = new StringBuilder();
        b.append(e.time()).append("  ").append(e.who() == null ? "(no token)" : e.who());
        if (e.role() != null) {
            b.append(" (").append(e.role().label()).append(')');
        }
        b.append(" from ")
                .append(e.source())
                .append(": ")
                .append(e.method())
                .append(' ')
                .append(e.route());
        if (e.target() != null) {
            b.append(' ').append(e.target());
        }
        b.append(" -> ").append(e.status());
        if (e.before() != null || e.after() != null) {
            b.append(", ")
                    .append(e.before() == null ? "-" : e.before())
                    .append(" -> ")
                    .append(e.after() == null ? "-" : e.after());
        }
        if (e.error() != null) {
            b.append(": ").append(e.error());
        }
        return b.toString();
    }
}
