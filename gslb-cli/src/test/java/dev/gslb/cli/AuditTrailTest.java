package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.api.AuditEntry;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.server.GslbServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit log of a real server: a line for every call that changes state, accepted or refused,
 * with who, role and source; a bound on its files; `gslb audit --since` reads it back.
 */
class AuditTrailTest {
    @TempDir
    Path dir;

    private GslbServer server;
    private String admin;
    private String local;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A server whose admin section says {@code audit}; its state (var/) in the test's folder. */
    private void start(String audit) throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path file = dir.resolve("gslb.yaml");
        String local = LoopbackConfig.local("gslb-a", "CNC")
                .replace("admin: {listen: \"127.0.0.1:0\"}", "admin: {listen: \"127.0.0.1:0\"" + audit + "}");
        Files.writeString(file, local + LoopbackConfig.shared(""));
        server = new GslbServer(ConfigLoader.load(file));
        server.start();
        admin = Isolated.adminUrl(server);
        this.local = AdminToken.read(dir.resolve("var/admin.token"));
    }

    private HttpResponse<String> post(String token, String path, String body) throws Exception {
        return new AdminHttp(server).post(token, path, body);
    }

    private String add(String name, Role role) throws Exception {
        return Json.MAPPER
                .readValue(
                        post(local, "/token/add", Json.write(new TokenRequest(name, role)))
                                .body(),
                        TokenAdded.class)
                .token();
    }

    private List<AuditEntry> lines() throws Exception {
        List<AuditEntry> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("var/audit.log"))) {
            out.add(Json.MAPPER.readValue(line, AuditEntry.class));
        }
        return out;
    }

    /** Status of a POST sent from {@code source} (any 127/8 address is this host's). */
    private int postFrom(String source, String token, String path) throws Exception {
        String a = server.admin().address();
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
            s.connect(new InetSocketAddress(
                    InetAddress.getLoopbackAddress(), Integer.parseInt(a.substring(a.lastIndexOf(':') + 1))));
            s.getOutputStream()
                    .write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                                    + "\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    @Test
    void acceptedAndRefusedCallsAreLinesWithWhoRoleAndSource() throws Exception {
        start("");
        String viewer = add("dashboard", Role.VIEWER);
        String operator = add("oncall", Role.OPERATOR);

        assertThat(post(viewer, "/ldns/probe?ip=127.0.0.9", "").statusCode()).isEqualTo(403);
        assertThat(post(null, "/config/reload", "").statusCode()).isEqualTo(401);
        assertThat(post(local, "/token/add", "{").statusCode()).isEqualTo(400);
        assertThat(post(local, "/topology/reload", "").statusCode()).isEqualTo(200);
        assertThat(postFrom("127.0.0.7", operator, "/ldns/delete?ip=192.0.2.1")).isEqualTo(404);
        assertThat(new AdminHttp(server).get(operator, "/token/list").statusCode())
                .as("a read refused for its role")
                .isEqualTo(403);
        new AdminHttp(server).get(viewer, "/topology/list"); // a read: not audited

        List<AuditEntry> lines = lines();
        assertThat(lines)
                .extracting(e -> e.who() + " " + e.role() + " " + e.method() + " " + e.route() + " " + e.status())
                .containsExactly(
                        "local ADMIN POST /token/add 200",
                        "local ADMIN POST /token/add 200",
                        "dashboard VIEWER POST /ldns/probe 403",
                        "null null POST /config/reload 401",
                        "local ADMIN POST /token/add 400",
                        "local ADMIN POST /topology/reload 200",
                        "oncall OPERATOR POST /ldns/delete 404",
                        "oncall OPERATOR GET /token/list 403");
        assertThat(lines.get(0).target()).isEqualTo("dashboard");
        assertThat(lines.get(0).after()).isEqualTo("viewer");
        assertThat(lines.get(2).target()).isEqualTo("ip=127.0.0.9");
        assertThat(lines.get(2).error()).contains("needs the operator role");
        assertThat(lines.get(3).error()).contains("admin token is missing or wrong");
        assertThat(lines.get(5).before()).matches("\\d+ regions, \\d+ prefixes");
        assertThat(lines.get(6).source()).isEqualTo("127.0.0.7");
        assertThat(lines.get(6).target()).isEqualTo("192.0.2.1");
        assertThat(lines)
                .allSatisfy(e -> assertThat(Instant.parse(e.time()))
                        .isBefore(Instant.now().plusSeconds(1)));
        assertThat(lines.subList(0, 6)).allSatisfy(e -> assertThat(e.source()).isEqualTo("127.0.0.1"));
        String text = Files.readString(dir.resolve("var/audit.log"));
        assertThat(text).as("no token value in the log").doesNotContain(viewer, operator, local);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("var/audit.log"))))
                .isEqualTo("rw-------");
    }

    @Test
    void gslbAuditReadsBackSinceADurationAndOtherCodeAddsEntries() throws Exception {
        start("");
        String operator = add("oncall", Role.OPERATOR);
        String viewer = add("dashboard", Role.VIEWER);
        // what the next step writes for a change a peer sent: not over HTTP, its time its own
        server.audit()
                .record(AuditEntry.of(
                        Instant.now().minus(Duration.ofHours(2)),
                        "gslb-tel",
                        "198.51.100.7",
                        "disable",
                        "vs-cnc",
                        "enabled",
                        "disabled"));
        post(operator, "/ldns/probe?ip=127.0.0.9", "");

        String op = AdminHttp.tokenFile(operator).toString();
        TopologyCommandTest.Run recent =
                TopologyCommandTest.gslb("audit", "--since", "1h", "--admin", admin, "--token-file", op);
        assertThat(recent.exit()).as(recent.err()).isZero();
        assertThat(recent.out())
                .contains(
                        "oncall (operator) from 127.0.0.1: POST /ldns/probe ip=127.0.0.9 -> 400: 127.0.0.9 is in the probe")
                .contains("local (admin) from 127.0.0.1: POST /token/add dashboard -> 200, - -> viewer")
                .doesNotContain("gslb-tel");
        TopologyCommandTest.Run all = TopologyCommandTest.gslb("audit", "--admin", admin, "--token-file", op);
        assertThat(all.out()).contains("gslb-tel from 198.51.100.7: PEER disable vs-cnc -> 200, enabled -> disabled");
        assertThat(TopologyCommandTest.gslb("audit", "--since", "3h", "--json", "--admin", admin, "--token-file", op)
                        .out())
                .contains("\"who\" : \"gslb-tel\"");
        TopologyCommandTest.Run asViewer = TopologyCommandTest.gslb(
                "audit",
                "--admin",
                admin,
                "--token-file",
                AdminHttp.tokenFile(viewer).toString());
        assertThat(asViewer.exit()).isEqualTo(1);
        assertThat(asViewer.err()).contains("needs the operator role");
        assertThat(TopologyCommandTest.gslb("audit", "--since", "yesterday", "--admin", admin, "--token-file", op)
                        .err())
                .contains("'yesterday' is not a duration");
    }

    @Test
    void theLogKeepsToItsFilesAndSizeFromTheSettings() throws Exception {
        start(", audit-max-size: 8KiB, audit-files: 2");
        for (int i = 0; i < 200; i++) {
            assertThat(post(null, "/config/reload?attempt=" + i, "").statusCode())
                    .isEqualTo(401);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir.resolve("var"))) {
            files = s.filter(p -> p.getFileName().toString().startsWith("audit.log"))
                    .sorted()
                    .toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("audit.log", "audit.log.1");
        for (Path f : files) {
            assertThat(Files.size(f)).isLessThanOrEqualTo(8 << 10);
        }
        assertThat(lines().getLast().target()).isEqualTo("attempt=199");
    }
}
