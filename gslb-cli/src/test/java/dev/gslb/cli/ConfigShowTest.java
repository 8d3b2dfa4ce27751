package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.server.GslbServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `gslb config show` over real HTTP with a viewer's token: the keys the file leaves out are there
 * with their defaults, and a monitor's password is not.
 */
class ConfigShowTest {
    static final String PASSWORD = "pa55-word-of-the-ftp-login";

    @TempDir
    Path dir;

    @Test
    void showsDefaultsAndNoSecret() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, LoopbackConfig.local("gslb-a", "CNC") + LoopbackConfig.shared("""
                monitors:
                  - {name: files, type: ftp, user: probe, password: "%s", interval: 30s}
                """.formatted(PASSWORD)));
        try (GslbServer server = ConfigSyncTest.start(file)) {
            showsTo(server, file);
        }
    }

    private static void showsTo(GslbServer server, Path file) throws Exception {
        AdminHttp http = new AdminHttp(server);
        String admin = AdminToken.read(ConfigLoader.load(file).admin().tokenFile());
        HttpResponse<String> added =
                http.post(admin, "/token/add", Json.write(new TokenRequest("dashboard", Role.VIEWER)));
        String viewer = Json.MAPPER.readValue(added.body(), TokenAdded.class).token();

        HttpResponse<String> r = http.get(viewer, "/config/show");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(PASSWORD);
        JsonNode c = Json.MAPPER.readTree(r.body()).get("configuration");
        assertThat(c.at("/dns/edns-udp-size").asInt())
                .as("a default the file leaves out")
                .isEqualTo(1232);
        assertThat(c.at("/load-balancing/unknown-health").asText()).isEqualTo("available");
        JsonNode monitor = c.at("/monitors/0");
        assertThat(monitor.get("interval").asText()).as("as written").isEqualTo("30s");
        assertThat(monitor.get("timeout").asText())
                .as("derived: half the interval")
                .isEqualTo("15s");
        assertThat(monitor.get("down").asInt()).isEqualTo(3);
        assertThat(monitor.get("port").asInt()).isEqualTo(21);
        assertThat(monitor.get("user").asText()).isEqualTo("probe");
        assertThat(monitor.get("password").asText()).isEqualTo("<redacted>");
        assertThat(c.at("/instance/datacenter").asText()).isEqualTo("CNC");
        assertThat(c.at("/wide-ips/0/name").asText()).isEqualTo("www.example.com");

        System.setProperty("gslb.token-file", AdminHttp.tokenFile(viewer).toString());
        TopologyCommandTest.Run show = TopologyCommandTest.gslb("config", "show", "--admin", Isolated.adminUrl(server));
        assertThat(show.exit()).as(show.err()).isZero();
        assertThat(show.out())
                .startsWith("# gslb-a: configuration generation 0 from gslb-a (digest ")
                .contains("edns-udp-size: 1232", "password: <redacted>", "max-body: 16MiB")
                .doesNotContain(PASSWORD);
    }
}
