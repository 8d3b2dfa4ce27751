package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.gslb.api.Event;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.alert.AlertSpec;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import dev.gslb.server.alert.Alerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts from a real server: a monitored service stops and comes back; a program (its stdin
 * appended to a file) and a webhook (a real HTTP server) get each change once; a webhook that
 * cannot be reached is counted as failed and not retried; a flapping source is capped per minute.
 */
class AlertsTest {
    static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void eachServerChangeReachesTheProgramAndTheWebhookOnce() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> posted = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 0), 0);
        hook.createContext("/hook", x -> {
            posted.add(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        hook.start();
        int dead;
        try (ServerSocket free = new ServerSocket(0)) {
            dead = free.getLocalPort();
        }
        Path log = dir.resolve("alerts.log");
        Files.writeString(
                dir.resolve("gslb.yaml"),
                LoopbackConfig.local("gslb-test", "CNC")
                        + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors:
                  - {name: svc, type: tcp, port: %d, interval: 100ms, timeout: 50ms, up: 1, down: 2}
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC, monitors: [svc]}
                pools:
                  - {name: www, members: [cnc]}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                alerts:
                  - on: [server-down, server-up]
                    exec: [/bin/sh, -c, "cat >> %s"]
                    webhook: http://127.0.0.1:%d/hook
                  - {on: [server-down], webhook: "http://127.0.0.1:%d/nobody"}
                """.formatted(port, log, hook.getAddress().getPort(), dead));
        ServerSocket service = FailoverEndToEndTest.listen("127.0.1.1", port);
        try (GslbServer s = new GslbServer(ConfigLoader.load(dir.resolve("gslb.yaml")))) {
            s.start();
            // up from the first check: no alert for a server first found UP (were there one, it would be
            // posted before the server-down below, which the assertions on posted.get(0) would see)
            Awaits.until("cnc found UP", LIMIT, () -> s.metric("health_state_changes", "to", "up") >= 1);
            assertThat(posted).isEmpty();

            service.close();
            Awaits.until("the server-down posted", LIMIT, () -> posted.size() == 1);
            service = FailoverEndToEndTest.listen("127.0.1.1", port);
            Awaits.until("the server-up posted", LIMIT, () -> posted.size() == 2);
            // nothing more comes: each change once; every delivery the two changes owe has been made
            // (program and webhook for both, the unreachable webhook for the down)
            Awaits.until("five deliveries made or failed", LIMIT, () -> deliveries(s) >= 5);
            assertThat(posted).hasSize(2);
            assertThat(posted.get(0))
                    .contains("\"event\":\"server-down\"", "\"subject\":\"cnc\"", "\"dataCenter\":\"CNC\"");
            assertThat(posted.get(0)).contains("\"instance\":\"gslb-test\"");
            assertThat(posted.get(1)).contains("\"event\":\"server-up\"");
            Awaits.until("two lines from the program", LIMIT, () -> lines(log) == 2);
            assertThat(Files.readAllLines(log))
                    .as("the program got the same JSON on its standard input")
                    .containsExactlyElementsOf(
                            posted.stream().map(String::strip).toList());
            assertThat(s.metric("alerts", "result", "failed"))
                    .as("the unreachable webhook: one failure for its one event, never retried")
                    .isEqualTo(1);
            assertThat(s.metric("alerts", "result", "sent")).isEqualTo(4);
        } finally {
            service.close();
            hook.stop(0);
        }
    }

    static double deliveries(GslbServer s) {
        return s.metric("alerts", "result", "sent") + s.metric("alerts", "result", "failed");
    }

    static int lines(Path p) {
        try {
            return Files.exists(p) ? Files.readAllLines(p).size() : 0;
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** A target stuck on one event holds at most its queue (1,000) more; the rest are dropped, counted. */
    /**
     * A signed zone whose key file does not read is served unsigned and raises dnssec-failing; the
     * file fixed and the configuration reloaded, it is signed again: dnssec-signing.
     */
    @Test
    void aSignedZoneThatCannotBeSignedIsToldAndSoIsItsReturn() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path keys = Files.createDirectories(dir.resolve("keys"));
        dev.gslb.dns.dnssec.KeyFile ksk = dev.gslb.dns.dnssec.KeyFile.generate(
                        org.xbill.DNS.Name.fromString("example.com."),
                        dev.gslb.dns.dnssec.KeyFile.ECDSAP256SHA256,
                        dev.gslb.dns.dnssec.KeyFile.KSK_FLAGS,
                        dev.gslb.dns.dnssec.KeyTimings.madeAt(java.time.Instant.now()))
                .write(keys);
        String good = Files.readString(ksk.privateFile());
        Files.writeString(ksk.privateFile(), good.replaceFirst("PrivateKey: \\S+", "PrivateKey: AAAA"));
        Path log = dir.resolve("alerts.log");
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, LoopbackConfig.local("gslb-test", "CNC") + """
                zones: [{file: example.com.zone, dnssec: {ksk-file: %s}}]
                datacenters: [CNC]
                alerts:
                  - on: [dnssec-failing, dnssec-signing]
                    exec: [/bin/sh, -c, "cat >> %s; echo >> %s"]
                """.formatted(ksk.privateFile(), log, log));
        try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
            s.reloadFrom(() -> ConfigLoader.load(file));
            s.start();
            Awaits.until(
                    "dnssec-failing for example.com",
                    Duration.ofSeconds(10),
                    () -> read(log).matches("(?s).*\"event\":\"dnssec-failing\".*\"subject\":\"example.com.\".*"));
            assertThat(read(log)).contains(ksk.privateFile().toString());
            Files.writeString(ksk.privateFile(), good);
            s.reload();
            Awaits.until(
                    "dnssec-signing for example.com",
                    Duration.ofSeconds(10),
                    () -> read(log).contains("\"event\":\"dnssec-signing\""));
        }
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void aStuckTargetHoldsABoundedQueue() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AlertSpec stuck = new AlertSpec(
                Set.of(Event.Kind.PEER_LOST), List.of("/bin/sleep", "2"), null, 10_000, Duration.ofSeconds(5));
        try (Alerts alerts = new Alerts(List.of(stuck), "a", Clock.systemUTC(), registry)) {
            alerts.raise(Event.Kind.PEER_LOST, "b", "TEL", "first");
            Awaits.until( // the sender has taken it and waits for the program
                    "/bin/sleep started",
                    LIMIT,
                    () -> ProcessHandle.current()
                            .descendants()
                            .anyMatch(p -> p.info().command().orElse("").endsWith("sleep")));
            for (int i = 0; i < 1500; i++) {
                alerts.raise(Event.Kind.PEER_LOST, "b", "TEL", "flood " + i);
            }
            assertThat(registry.get("alerts").tag("result", "dropped").counter().count())
                    .isEqualTo(500);
        }
    }

    @Test
    void aFlappingSourceIsCappedPerMinute() throws Exception {
        Path log = dir.resolve("flap.log");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AlertSpec spec = new AlertSpec(
                Set.of(Event.Kind.LINK_DOWN),
                List.of("/bin/sh", "-c", "cat >> " + log),
                null,
                2,
                Duration.ofSeconds(5));
        try (Alerts alerts = new Alerts(List.of(spec), "a", Clock.systemUTC(), registry)) {
            for (int i = 0; i < 5; i++) {
                alerts.raise(Event.Kind.LINK_DOWN, "CNC-1", "CNC", "flap " + i);
            }
            alerts.raise(Event.Kind.SERVER_DOWN, "vs", "CNC", "not listened for");
            // the two admitted are both sent (the other three were dropped at once): nothing is left to write
            Awaits.until(
                    "both admitted alerts sent",
                    LIMIT,
                    () -> registry.get("alerts").tag("result", "sent").counter().count() >= 2);
            assertThat(Files.readAllLines(log)).hasSize(2);
            assertThat(registry.get("alerts").tag("result", "dropped").counter().count())
                    .isEqualTo(3);
        }
    }
}
