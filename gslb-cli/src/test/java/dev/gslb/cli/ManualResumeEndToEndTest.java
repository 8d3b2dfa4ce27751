package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.Explanation;
import dev.gslb.api.Json;
import dev.gslb.api.ServerStatus;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Manual resume through the real server and its admin API over HTTP: a monitored service on
 * loopback stops and comes back; its server waits, shown in GET /health/servers and in the
 * explained decision, through a restart, until POST /vs/resume; the command says the same.
 */
class ManualResumeEndToEndTest {
    static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();

    static String config(int port) {
        return LoopbackConfig.local("gslb-test", "CNC") + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors:
                  - {name: svc, type: tcp, port: %d, interval: 100ms, timeout: 50ms, up: 1, down: 1, manual-resume: true}
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC, monitors: [svc]}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [cnc, tel]}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """.formatted(port);
    }

    HttpResponse<String> send(GslbServer s, String method, String pathAndQuery) throws Exception {
        String token = AdminToken.read(dir.resolve("var/admin.token"));
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + s.admin().address() + pathAndQuery))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    ServerStatus cnc(GslbServer s) {
        try {
            List<ServerStatus> all = Json.MAPPER.readValue(
                    send(s, "GET", "/health/servers").body(), new TypeReference<List<ServerStatus>>() {});
            return all.stream().filter(x -> x.name().equals("cnc")).findFirst().orElseThrow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aServerWaitsThroughARestartUntilResumedOverTheAdminApi() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, config(port));
        ServerSocket service = FailoverEndToEndTest.listen("127.0.1.1", port);
        try {
            try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
                s.start();
                Awaits.until("cnc up", LIMIT, () -> cnc(s).state() == ServerStatus.State.UP);
                HttpResponse<String> notWaiting = send(s, "POST", "/vs/resume?name=cnc");
                assertThat(notWaiting.statusCode()).isEqualTo(409);
                assertThat(notWaiting.body()).contains("virtual server cnc is not waiting for resume (it is up)");

                service.close();
                ServerStatus down = Awaits.until("cnc waiting", LIMIT, () -> cnc(s), ServerStatus::waitingForResume);
                assertThat(down.state()).isEqualTo(ServerStatus.State.DOWN);
                assertThat(down.waitingSince()).isNotNull();
                assertThat(down.passedAgainAt()).isNull();
                assertThat(send(s, "GET", "/health/servers").body())
                        .contains("\"waitingForResume\" : true", "\"waitingSince\" : \"" + down.waitingSince() + "\"");
            }
            assertThat(dir.resolve("waiting-for-resume"))
                    .as("kept in the state folder")
                    .exists();

            service = FailoverEndToEndTest.listen("127.0.1.1", port);
            try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
                s.start();
                ServerStatus passed =
                        Awaits.until("cnc passing again", LIMIT, () -> cnc(s), x -> x.passedAgainAt() != null);
                assertThat(passed.state()).as("after a restart too").isEqualTo(ServerStatus.State.DOWN);
                assertThat(passed.waitingForResume()).isTrue();
                Explanation why = Json.MAPPER.readValue(
                        send(s, "GET", "/resolve?name=www.example.com&ldns=127.0.0.1")
                                .body(),
                        Explanation.class);
                assertThat(why.steps())
                        .extracting(Explanation.Step::detail)
                        .contains("www: cnc 127.0.1.1 (CNC) unavailable: down, waiting for manual resume");
                assertThat(why.answers()).extracting(Explanation.Answer::server).containsExactly("tel");

                System.setProperty(
                        "gslb.token-file", dir.resolve("var/admin.token").toString());
                String admin = "http://" + s.admin().address();
                TopologyCommandTest.Run health = TopologyCommandTest.gslb("health", "--admin", admin);
                assertThat(health.out())
                        .contains("waiting for resume since " + passed.waitingSince()
                                + ", its monitors passed again at " + passed.passedAgainAt()
                                + " (gslb resume vs cnc)");
                TopologyCommandTest.Run typo = TopologyCommandTest.gslb("resume", "vs", "cnx", "--admin", admin);
                assertThat(typo.exit()).isEqualTo(1);
                assertThat(typo.err()).contains("gslb: no virtual server is named cnx; did you mean cnc?");

                TopologyCommandTest.Run resumed = TopologyCommandTest.gslb("resume", "vs", "cnc", "--admin", admin);
                assertThat(resumed.exit()).as(resumed.err()).isZero();
                assertThat(resumed.out()).contains("resumed cnc: up");
                ServerStatus up = cnc(s);
                assertThat(up.state()).as("its monitor passed: up at once").isEqualTo(ServerStatus.State.UP);
                assertThat(up.waitingForResume()).isFalse();
                assertThat(up.waitingSince()).isNull();

                TopologyCommandTest.Run again = TopologyCommandTest.gslb("resume", "vs", "cnc", "--admin", admin);
                assertThat(again.exit()).isEqualTo(1);
                assertThat(again.err()).contains("virtual server cnc is not waiting for resume");
            }
        } finally {
            service.close();
        }
    }
}
