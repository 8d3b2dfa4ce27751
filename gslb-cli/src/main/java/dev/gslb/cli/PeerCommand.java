package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.JoinRequest;
import dev.gslb.api.Joined;
import dev.gslb.api.Json;
import dev.gslb.api.PairRequest;
import dev.gslb.api.PairingView;
import dev.gslb.api.PeerStatus;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "peer",
        description = "Peer sync between the instances of the data centers.",
        subcommands = {
            PeerCommand.Pair.class,
            PeerCommand.Join.class,
            PeerCommand.ListPeers.class,
            PeerCommand.Remove.class
        })
final class PeerCommand {
    @Command(name = "pair", description = "Print a one-time join token for the other instance (expires in 15 minutes).")
    static final class Pair implements Callable<Integer> {
        @Option(
                names = "--advertise",
                paramLabel = "ADDR",
                description =
                        "This instance's sync address on an ISP link, as the peer dials it (repeatable; default: sync.advertise).")
        List<String> advertise = new ArrayList<>();

        @Option(
                names = "--datacenter",
                paramLabel = "DC",
                description =
                        "Only an instance in data center DC may join with the token (default: any the configuration"
                                + " names, other than this instance's and its peers').")
        String dataCenter;

        @Option(
                names = "--allow-shared-datacenter",
                description =
                        "The joining instance may be in this instance's data center (active/standby) or in one that"
                                + " already has a paired peer.")
        boolean allowSharedDataCenter;

        @Option(names = "--json", description = "Print JSON: the token, its expiry, this instance's fingerprint.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            var reply = admin.client()
                    .post("/peer/pair", Json.write(new PairRequest(advertise, dataCenter, allowSharedDataCenter)));
            return AdminReply.print(reply, json, PairingView.class, r -> {
                r.warnings().forEach(w -> System.err.println("warning: " + w));
                System.out.println("Join token (usable once, until " + r.expires() + "):");
                System.out.println();
                System.out.println("  " + r.token());
                System.out.println();
                System.out.println(
                        "On the other instance, run this and paste the token (or add --join-token-file FILE):");
                System.out.println();
                System.out.println("  gslb peer join");
                System.out.println();
                System.out.println(
                        "(its admin API is found as for every command there: --admin ADDR, else $GSLB_ADMIN, else"
                                + " admin.listen of gslb --config FILE, $GSLB_CONFIG or /etc/gslb/gslb.yaml)");
                System.out.println("It lets one instance pair with this one: pass it over a channel you trust.");
                System.out.println("This instance's certificate (SHA-256): " + r.fingerprint());
            });
        }
    }

    @Command(
            name = "join",
            description = "Pair with the instance whose join token is read from standard input (or --join-token-file).")
    static final class Join implements Callable<Integer> {
        @Option(
                names = "--join-token-file",
                paramLabel = "FILE",
                description = "Read the join token from FILE instead of standard input.")
        Path tokenFile;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            String token;
            if (tokenFile != null) {
                token = Files.readString(tokenFile);
            } else {
                if (System.console() != null && System.console().isTerminal()) {
                    System.err.print("Paste the join token printed by `gslb peer pair`: ");
                }
                token = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            }
            if (token == null || token.isBlank()) {
                System.err.println("gslb: no join token (run `gslb peer pair` on the other instance)");
                return 2;
            }
            var reply = admin.client().post("/peer/join", Json.write(new JoinRequest(token.strip())));
            if (!reply.ok() && !json) {
                System.err.print("gslb: not paired: ");
                AdminReply.printError(reply);
                return 1;
            }
            return AdminReply.print(
                    reply,
                    json,
                    Joined.class,
                    r -> System.out.println("paired with " + r.peer()
                            + " (connected and authenticated); `gslb peer list` shows the link"));
        }
    }

    @Command(name = "remove", description = "Forget a peer and its key on this instance (run it on both sides).")
    static final class Remove implements Callable<Integer> {
        @Parameters(paramLabel = "NAME")
        String name;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Mixin
        AdminOption admin;

        @Override
        public Integer call() throws Exception {
            var reply = admin.client().post("/peer/remove?name=" + LdnsCommand.enc(name), "");
            return AdminReply.removed(reply, json, "removed", name + " is not a peer of this instance");
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
            return AdminReply.print(
                    admin.client().get("/peer/list"), json, new TypeReference<List<PeerStatus>>() {}, r -> {
                        if (r.isEmpty()) {
                            System.out.println("no peers: pair with `gslb peer pair` on one instance, then its command"
                                    + " on the other");
                        }
                        for (var p : r) {
                            System.out.printf(
                                    "%s (%s): %s via %s%n",
                                    p.name(), p.dataCenter(), p.state(), p.inUse() == null ? "-" : p.inUse());
                            System.out.printf("  addresses %s%n", p.addresses());
                            System.out.printf(
                                    "  last heartbeat %s, items sent %d, received %d, dropped %d, queued %d,"
                                            + " lag %s ms%n",
                                    p.lastHeartbeat() == null ? "-" : p.lastHeartbeat(),
                                    p.itemsSent(),
                                    p.itemsReceived(),
                                    p.dropped(),
                                    p.queued(),
                                    p.lagMillis() == null ? "-" : p.lagMillis());
                        }
                    });
        }
    }
}
