package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.api.Json;
import dev.gslb.probe.Awaits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real `gslb serve` processes in Linux network namespaces, joined by two links (one per ISP
 * link, 198.18.41.0/30 and 198.18.42.0/30), paired with `gslb peer pair` / `gslb peer join`.
 * Cutting one link keeps the pair connected over the other; cutting both partitions it; a link
 * back heals it, and what was measured meanwhile arrives.
 */
class PairAcrossTwoLinksTest {
    static final Duration LIMIT = Duration.ofSeconds(60); // each look is a run of the CLI: a JVM started
    static final String A = "gslbt-dca";
    static final String B = "gslbt-dcb";

    @TempDir
    Path dir;

    private final List<Process> servers = new ArrayList<>();

    static String sh(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
            }
            return out;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static void quietly(String... cmd) {
        try {
            sh(cmd);
        } catch (IllegalStateException e) {
            // nothing to clean
        }
    }

    /** The gslb command in namespace {@code ns}, with the admin token of the instance there. */
    List<String> gslb(String ns, String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                "ip",
                "netns",
                "exec",
                ns,
                "env",
                "GSLB_TOKEN_FILE=" + dir.resolve(ns).resolve("admin.token"),
                ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dgslb.home=..",
                "dev.gslb.cli.Gslb"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    String run(String ns, String... args) {
        return sh(gslb(ns, args).toArray(String[]::new));
    }

    static void cleanNetwork() {
        quietly("ip", "netns", "del", A);
        quietly("ip", "netns", "del", B);
    }

    void network() {
        cleanNetwork();
        sh("ip", "netns", "add", A);
        sh("ip", "netns", "add", B);
        for (int link = 1; link <= 2; link++) {
            String a = "gslbt-a" + link;
            String b = "gslbt-b" + link;
            sh("ip", "link", "add", a, "netns", A, "type", "veth", "peer", "name", b, "netns", B);
            sh("ip", "-n", A, "addr", "add", "198.18.4" + link + ".1/30", "dev", a);
            sh("ip", "-n", B, "addr", "add", "198.18.4" + link + ".2/30", "dev", b);
            sh("ip", "-n", A, "link", "set", a, "up");
            sh("ip", "-n", B, "link", "set", b, "up");
        }
        sh("ip", "-n", A, "link", "set", "lo", "up");
        sh("ip", "-n", B, "link", "set", "lo", "up");
    }

    Path config(String ns, String name, String dc, int hostOctet) throws IOException {
        Files.copy(
                Path.of("../zones/example.com.zone"),
                dir.resolve("example.com.zone"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, """
                instance: {name: %s, datacenter: %s}
                admin: {token-file: %3$s/admin.token}  # each instance its own state folder
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                probe: {store: %3$s/proximity, protocols: [tcp], timeout: 300ms, exclude: []}  # probes 127.0.0.1 below
                sync:
                  listen: ["198.18.41.%4$d:8054", "198.18.42.%4$d:8054"]
                  peers-file: %3$s/peers
                  identity: %3$s/identity.pem
                  heartbeat: 200ms
                  dead-after: 1s
                """.formatted(name, dc, ns, hostOctet));
        return file;
    }

    JsonNode peers(String ns) throws IOException {
        return Json.MAPPER.readTree(run(ns, "peer", "list", "--json"));
    }

    /** The peer list of the instance in {@code ns}, for {@link Awaits}. */
    Supplier<JsonNode> peerList(String ns) {
        return () -> {
            try {
                return peers(ns);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    /** The instance in {@code ns}'s entry for {@code ldns}, null while it has none. */
    Supplier<JsonNode> ldnsShown(String ns, String ldns) {
        return () -> {
            try {
                return Json.MAPPER.readTree(run(ns, "ldns", "show", ldns, "--json"));
            } catch (IllegalStateException notYet) {
                return null;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    static boolean measuredByCnc(JsonNode ldns) {
        return ldns != null && ldns.path("paths").toString().contains("CNC");
    }

    /** Waits until the instance in {@code ns} answers its admin API; if it does not, fails with its log. */
    void awaitUp(String ns, Process server, String log) throws Exception {
        try {
            Awaits.until("the instance in " + ns + " answering its admin API", LIMIT, () -> {
                try {
                    peers(ns);
                    return true;
                } catch (IllegalStateException | IOException e) {
                    if (!server.isAlive()) {
                        throw new AssertionError("exited " + server.exitValue(), e);
                    }
                    return false;
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(
                    "the instance in " + ns + " did not come up (" + e.getMessage() + "); its log:\n"
                            + Files.readString(dir.resolve(log)),
                    e);
        }
    }

    static Predicate<JsonNode> connectedVia(String prefix) {
        return n -> n.size() == 1
                && n.get(0).path("state").asText().equals("connected")
                && n.get(0).path("inUse").asText().startsWith(prefix);
    }

    @AfterEach
    void cleanUp() {
        servers.forEach(Process::destroyForcibly);
        cleanNetwork();
    }

    @Test
    void cuttingOneLinkKeepsThePairAndAPartitionHeals() throws Exception {
        network();
        Path ca = config(A, "gslb-cnc", "CNC", 1);
        Path cb = config(B, "gslb-tel", "TEL", 2);
        servers.add(new ProcessBuilder(gslb(A, "serve", "--config", ca.toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("a.log").toFile())
                .start());
        servers.add(new ProcessBuilder(gslb(B, "serve", "--config", cb.toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("b.log").toFile())
                .start());
        awaitUp(A, servers.get(0), "a.log");
        awaitUp(B, servers.get(1), "b.log");
        List<String> pairOut = run(A, "peer", "pair").lines().toList();
        String token = pairOut.get(pairOut.indexOf(pairOut.stream()
                                .filter(l -> l.startsWith("Join token"))
                                .findFirst()
                                .orElseThrow())
                        + 2)
                .strip();
        Path tokenFile = dir.resolve("join-token");
        Files.writeString(tokenFile, token);
        assertThat(run(B, "peer", "join", "--join-token-file", tokenFile.toString()))
                .contains("paired with gslb-cnc");

        assertThat(Awaits.until(A + " connected via 198.18.41.", LIMIT, peerList(A), connectedVia("198.18.41."))
                        .get(0)
                        .path("name")
                        .asText())
                .isEqualTo("gslb-tel");
        assertThat(Awaits.until(B + " connected via 198.18.41.", LIMIT, peerList(B), connectedVia("198.18.41."))
                        .get(0)
                        .path("inUse")
                        .asText())
                .isEqualTo("198.18.41.1:8054");
        assertThat(peers(A).toString()).doesNotContain("key");

        sh("ip", "-n", A, "link", "set", "gslbt-a1", "down"); // the first ISP link fails
        assertThat(Awaits.until(A + " connected via 198.18.42.", LIMIT, peerList(A), connectedVia("198.18.42."))
                        .get(0)
                        .path("inUse")
                        .asText())
                .isEqualTo("198.18.42.2:8054");
        assertThat(Awaits.until(B + " connected via 198.18.42.", LIMIT, peerList(B), connectedVia("198.18.42."))
                        .get(0)
                        .path("inUse")
                        .asText())
                .isEqualTo("198.18.42.1:8054");
        run(A, "ldns", "probe", "198.18.42.2", "--protocol", "tcp");
        JsonNode synced = Awaits.until(
                "B holding CNC's path to 198.18.42.2",
                LIMIT,
                ldnsShown(B, "198.18.42.2"),
                PairAcrossTwoLinksTest::measuredByCnc);
        assertThat(synced).isNotNull();
        assertThat(synced.path("paths").get(0).path("measuredBy").asText()).isEqualTo("gslb-cnc");

        sh("ip", "-n", A, "link", "set", "gslbt-a2", "down"); // both links: a partition
        assertThat(Awaits.until(
                                "A's peer no longer connected",
                                LIMIT,
                                peerList(A),
                                n -> !n.get(0).path("state").asText().equals("connected"))
                        .get(0)
                        .path("state")
                        .asText())
                .isNotEqualTo("connected");
        run(A, "ldns", "probe", "127.0.0.1", "--protocol", "tcp"); // measured during the partition
        sh("ip", "-n", A, "link", "set", "gslbt-a1", "up"); // heal
        Awaits.until(B + " connected via 198.18.41.", LIMIT, peerList(B), connectedVia("198.18.41."));
        JsonNode healed = Awaits.until(
                "B holding CNC's path to 127.0.0.1",
                LIMIT,
                ldnsShown(B, "127.0.0.1"),
                PairAcrossTwoLinksTest::measuredByCnc);
        assertThat(healed)
                .as("the snapshot after the heal carries what was measured meanwhile")
                .isNotNull();
        assertThat(healed.path("paths").toString()).contains("CNC");
    }
}
