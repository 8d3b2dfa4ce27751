package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.Json;
import dev.gslb.api.ServerStatus;
import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.Nginx;
import dev.gslb.server.GslbServer;
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
 * A server's load read from a real nginx in front of it, through the running server: held
 * connections take it past its limit, `gslb health` and the explained decision say so and answers
 * go to the other server; released, it is answered again; its gauge is scraped; a reload that
 * drops its load: stops the polling and the load is unknown.
 */
class ServerLoadEndToEndTest {
    static final Duration LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    static String config(String load) {
        return LoopbackConfig.local("gslb-test", "CNC") + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC%s}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [cnc, tel], preferred: global-availability}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """.formatted(load);
    }

    static ServerStatus cnc(String admin) {
        TopologyCommandTest.Run r = TopologyCommandTest.gslb("health", "--json", "--admin", admin);
        try {
            return Json.MAPPER.readValue(r.out(), new TypeReference<List<ServerStatus>>() {}).stream()
                    .filter(s -> s.name().equals("cnc"))
                    .findFirst()
                    .orElseThrow();
        } catch (Exception e) {
            throw new IllegalStateException(r.err(), e);
        }
    }

    @Test
    void heldConnectionsTakeTheServerPastItsLimitAndAnswersElsewhere() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path file = dir.resolve("gslb.yaml");
        try (Nginx nginx = new Nginx(Files.createDirectory(dir.resolve("nginx")))) {
            Files.writeString(
                    file,
                    config(", load: {nginx: \"" + nginx.url("/stub_status")
                            + "\", interval: 1s, window: 1s}, limits: {connections: 4, resume: 50%}"));
            try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
                s.start();
                System.setProperty(
                        "gslb.token-file", dir.resolve("var/admin.token").toString());
                String admin = "http://" + s.admin().address();
                ServerStatus idle = Awaits.until(
                        "cnc's connections read",
                        LIMIT,
                        () -> cnc(admin),
                        x -> x.load() != null && x.load().connections() != null);
                assertThat(idle.load().overLimit()).isNull();
                assertThat(idle.load().measuredBy()).isEqualTo("CNC");
                assertThat(idle.load().cpuPercent())
                        .as("nginx gives no CPU: unknown, not 0")
                        .isNull();

                nginx.hold(6); // with the read itself: 7 > 4
                ServerStatus over = Awaits.until(
                        "cnc over its limit",
                        LIMIT,
                        () -> cnc(admin),
                        x -> x.load().overLimit() != null);
                assertThat(over.load().overLimit()).matches("cnc over limit: connections \\d+ > 4");
                TopologyCommandTest.Run health = TopologyCommandTest.gslb("health", "--admin", admin);
                assertThat(health.out()).contains("OVER: ", over.load().overLimit());
                TopologyCommandTest.Run why =
                        TopologyCommandTest.gslb("resolve", "www.example.com", "--ldns", "127.0.0.1", "--admin", admin);
                assertThat(why.out())
                        .contains("www: cnc 127.0.1.1 (CNC) cnc over limit: connections")
                        .contains("127.0.1.2");
                assertThat(why.out()).doesNotContain("answer: 127.0.1.1");
                HttpResponse<String> metrics = HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(admin + "/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertThat(metrics.body())
                        .contains("gslb_server_connections{datacenter=\"CNC\",server=\"cnc\"}")
                        .contains("gslb_server_over_limit{datacenter=\"CNC\",server=\"cnc\"} 1.0")
                        .doesNotContain("gslb_server_cpu_percent{");

                nginx.release();
                ServerStatus back = Awaits.until(
                        "cnc back under resume",
                        LIMIT,
                        () -> cnc(admin),
                        x -> x.load().overLimit() == null);
                assertThat(back.load().connections()).isLessThanOrEqualTo(2);

                Files.writeString(file, config(""));
                s.reloadFrom(() -> ConfigLoader.load(file)); // as `gslb serve --config` does
                s.reload();
                Awaits.until(
                        "cnc's load unknown after the reload",
                        LIMIT,
                        () -> cnc(admin).load() == null);
            }
        }
    }
}
