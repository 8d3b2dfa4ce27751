package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenInfo;
import dev.gslb.api.TokenRequest;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "token",
        description = "The admin API's tokens on this instance, each with a name and a role (viewer, operator, admin).",
        subcommands = {TokenCommand.Add.class, TokenCommand.ListTokens.class, TokenCommand.Remove.class})
final class TokenCommand {
    @Command(name = "add", description = "Make a token and print it, this once: the server keeps only its hash.")
    static final class Add implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "Who uses it (letters, digits, '.', '_', '@', '-').")
        String name;

        @Option(
                names = "--role",
                required = true,
                paramLabel = "ROLE",
                description = "viewer (reads), operator (also probes, topology loads, disable/drain),"
                        + " admin (also configuration reloads, pairing, tokens).")
        String role;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            Role r;
            try {
                r = Role.parse(role);
            } catch (IllegalArgumentException e) {
                System.err.println("gslb: --role " + e.getMessage());
                return 2;
            }
            var reply = admin.client().post("/token/add", Json.write(new TokenRequest(name, r)));
            return AdminReply.print(reply, json, TokenAdded.class, t -> {
                System.out.println("Token " + t.name() + " (" + t.role().label()
                        + "), shown this once: the server keeps only its hash.");
                System.out.println();
                System.out.println("  " + t.token());
                System.out.println();
                System.out.println("Save it in a file only its user may read (chmod 600), and give that file to gslb:"
                        + " --token-file FILE or $GSLB_TOKEN_FILE.");
            });
        }
    }

    @Command(name = "list", description = "Tokens: name, role, created, last used since the server started.")
    static final class ListTokens implements Callable<Integer> {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().get("/token/list"), json, new TypeReference<List<TokenInfo>>() {}, r -> {
                        System.out.printf("%-24s %-9s %-21s %s%n", "NAME", "ROLE", "CREATED", "LAST USED");
                        for (var t : r) {
                            System.out.printf(
                                    "%-24s %-9s %-21s %s%n",
                                    t.name(), t.role().label(), t.created(), t.lastUsed() == null ? "-" : t.lastUsed());
                        }
                    });
        }
    }

    @Command(name = "remove", description = "Remove a token: requests with it are refused from now on.")
    static final class Remove implements Callable<Integer> {
        @Parameters(paramLabel = "NAME")
        String name;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            var reply = admin.client().post("/token/remove?name=" + LdnsCommand.enc(name), "");
            return AdminReply.removed(reply, json, "removed", name + " is not a token of this instance");
        }
    }
}
