package dev.gslb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.cli.admin.Json;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "peer", description = "Peer sync between the instances of the data centers.",
        subcommands = {PeerCommand.Pair.class, PeerCommand.Join.class, PeerCommand.ListPeers.class,
                PeerCommand.Remove.class})
final class PeerCommand {
    @Command(name = "pair", description = "Create this pair's key and print the one command to run on the other instance.")
    static final class Pair implements Callable<Integer> {
        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().post("/peer/pair", "{}"), false, r -> {
                System.out.println("On the other instance, run (valid until " + r.path("expires").asText() + "):");
                System.out.println();
                System.out.println("  " + r.path("command").asText());
                System.out.println();
                System.out.println("It holds the pair's secret key: pass it over a channel you trust.");
            });
        }
    }

    @Command(name = "join", description = "Pair with the instance that printed this command; both then connect.")
    static final class Join implements Callable<Integer> {
        @Parameters(paramLabel = "TOKEN")
        String token;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().post("/peer/join", Json.write(Map.of("token", token))),
                    false, r -> System.out.println("paired with " + r.path("peer").asText() + "; `gslb peer list` shows the link"));
        }
    }

    @Command(name = "remove", description = "Forget a peer and its key on this instance (run it on both sides).")
    static final class Remove implements Callable<Integer> {
        @Parameters(paramLabel = "NAME")
        String name;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            var reply = admin.client().post("/peer/remove?name=" + LdnsCommand.enc(name), "");
            if (reply.status() == 404) {
                System.err.println(name + " is not a peer of this instance");
                return 1;
            }
            return AdminReply.print(reply, false, r -> System.out.println("removed " + name));
        }
    }

    @Command(name = "list", description = "Peers: addresses, the one in use, state, last heartbeat, items, lag.")
    static final class ListPeers implements Callable<Integer> {
        @Option(names = "--json", description = "Print JSON (no keys).")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get("/peer/list"), json, r -> {
                if (r.isEmpty()) {
                    System.out.println("no peers: pair with `gslb peer pair` on one instance, then its command on the other");
                }
                for (JsonNode p : r) {
                    System.out.printf("%s (%s): %s via %s%n", p.path("name").asText(), p.path("dataCenter").asText(),
                            p.path("state").asText(), p.path("inUse").asText("-"));
                    System.out.printf("  addresses %s%n", p.path("addresses"));
                    System.out.printf("  last heartbeat %s, items sent %d, received %d, dropped %d, queued %d, lag %s ms%n",
                            p.path("lastHeartbeat").asText("-"), p.path("itemsSent").asLong(), p.path("itemsReceived").asLong(),
                            p.path("dropped").asLong(), p.path("queued").asInt(), p.path("lagMillis").asText("-"));
                }
            });
        }
    }
}
