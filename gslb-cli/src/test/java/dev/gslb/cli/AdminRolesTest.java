package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.config.GslbConfig;
import dev.gslb.probe.store.StateFile;
import dev.gslb.server.GslbServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tokens with names and roles, over real HTTP and through the gslb command: a role too little
 * gets 403 naming the role needed, a token is printed once and stored only as its hash, and an
 * installation's existing admin.token goes on working as the admin token {@code local}.
 */
class AdminRolesTest {
    /** What an installation of before wrote: the clear token the CLI reads. */
    private static final String OLD_TOKEN = "an-existing-installations-token-0123456789";

    private static final Pattern PRINTED = Pattern.compile("gslb_[A-Za-z0-9_-]{43}");
    private GslbServer server;
    private String admin;
    private Path stateDir;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A server whose state folder already holds an admin.token, as an installation of before has. */
    private void start() throws Exception {
        GslbConfig c = Isolated.embedded();
        StateFile.createPrivate(c.admin().tokenFile(), (OLD_TOKEN + "\n").getBytes(StandardCharsets.US_ASCII));
        stateDir = c.admin().tokenFile().getParent();
        server = new GslbServer(c);
        server.start();
        admin = Isolated.adminUrl(server);
    }

    private HttpResponse<String> post(String token, String path, String body) throws Exception {
        return new AdminHttp(server).post(token, path, body);
    }

    private HttpResponse<String> get(String token, String path) throws Exception {
        return new AdminHttp(server).get(token, path);
    }

    private String add(String name, Role role) throws Exception {
        HttpResponse<String> r = post(OLD_TOKEN, "/token/add", Json.write(new TokenRequest(name, role)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readValue(r.body(), TokenAdded.class).token();
    }

    @Test
    void eachRoleIsRefusedWhatItDoesNotAllowWithTheRoleItNeeds() throws Exception {
        start();
        String viewer = add("dashboard", Role.VIEWER);
        String operator = add("oncall", Role.OPERATOR);
        String boss = add("boss", Role.ADMIN);

        assertThat(get(viewer, "/topology/list").statusCode()).isEqualTo(200);
        HttpResponse<String> probe = post(viewer, "/ldns/probe?ip=127.0.0.9", "");
        assertThat(probe.statusCode()).isEqualTo(403);
        assertThat(probe.body())
                .contains(
                        "\"needs\" : \"operator\"",
                        "\"role\" : \"viewer\"",
                        "POST /ldns/probe needs the operator role");
        assertThat(get(viewer, "/audit").statusCode()).isEqualTo(403);
        assertThat(get(viewer, "/config/diff?peer=x").body()).contains("\"needs\" : \"admin\"");

        HttpResponse<String> delete = post(operator, "/ldns/delete?ip=192.0.2.1", "");
        assertThat(delete.body()).as("the operator route ran").contains("\"removed\" : false");
        assertThat(get(operator, "/audit").statusCode()).isEqualTo(200);
        HttpResponse<String> reload = post(operator, "/config/reload", "");
        assertThat(reload.statusCode()).isEqualTo(403);
        assertThat(reload.body()).contains("\"needs\" : \"admin\"", "\"role\" : \"operator\"");
        assertThat(get(operator, "/token/list").statusCode()).isEqualTo(403);
        assertThat(post(operator, "/token/add", "{\"name\":\"me\",\"role\":\"admin\"}")
                        .statusCode())
                .isEqualTo(403);

        assertThat(post(boss, "/config/reload", "").statusCode()).isEqualTo(200);
        assertThat(post("gslb_not-a-token-of-this-server-0000000000000000", "/config/reload", "")
                        .statusCode())
                .isEqualTo(401);

        // the gslb command with a user's own token file says what is missing
        TopologyCommandTest.Run cli = TopologyCommandTest.gslb(
                "config",
                "reload",
                "--admin",
                admin,
                "--token-file",
                AdminHttp.tokenFile(viewer).toString());
        assertThat(cli.exit()).isEqualTo(1);
        assertThat(cli.err()).contains("needs the admin role; token dashboard is viewer");
        TopologyCommandTest.Run list = TopologyCommandTest.gslb(
                "topology",
                "list",
                "--admin",
                admin,
                "--token-file",
                AdminHttp.tokenFile(viewer).toString());
        assertThat(list.exit()).as(list.err()).isZero();
    }

    @Test
    void aTokenIsPrintedOnceStoredHashedListedAndRemoved() throws Exception {
        start();
        Path local = AdminHttp.tokenFile(OLD_TOKEN);
        TopologyCommandTest.Run added = TopologyCommandTest.gslb(
                "token", "add", "alice", "--role", "operator", "--admin", admin, "--token-file", local.toString());
        assertThat(added.exit()).as(added.err()).isZero();
        Matcher m = PRINTED.matcher(added.out());
        assertThat(m.find()).as(added.out()).isTrue();
        String alice = m.group();
        assertThat(added.out()).contains("alice (operator), shown this once");

        Path stored = stateDir.resolve("admin.tokens");
        String content = Files.readString(stored);
        assertThat(content).doesNotContain(alice).contains("alice", "operator", sha256(alice));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(stateDir.resolve("admin.token")).strip())
                .as("the local token stays as the CLI reads it")
                .isEqualTo(OLD_TOKEN);

        TopologyCommandTest.Run again = TopologyCommandTest.gslb(
                "token", "add", "alice", "--role", "viewer", "--admin", admin, "--token-file", local.toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("a token named alice exists");
        TopologyCommandTest.Run badRole = TopologyCommandTest.gslb(
                "token", "add", "bob", "--role", "root", "--admin", admin, "--token-file", local.toString());
        assertThat(badRole.exit()).isEqualTo(2);
        assertThat(badRole.err()).contains("'root' is not a role: viewer, operator, admin");

        assertThat(get(alice, "/topology/list").statusCode()).isEqualTo(200);
        TopologyCommandTest.Run list =
                TopologyCommandTest.gslb("token", "list", "--admin", admin, "--token-file", local.toString());
        assertThat(list.exit()).isZero();
        assertThat(list.out()).containsPattern("local +admin ").containsPattern("alice +operator +\\S+ +20\\d\\d-");
        assertThat(TopologyCommandTest.gslb(
                                "token", "list", "--json", "--admin", admin, "--token-file", local.toString())
                        .out())
                .contains("\"name\" : \"alice\"")
                .doesNotContain(alice);

        TopologyCommandTest.Run removed = TopologyCommandTest.gslb(
                "token", "remove", "alice", "--admin", admin, "--token-file", local.toString());
        assertThat(removed.exit()).isZero();
        assertThat(get(alice, "/topology/list").statusCode()).isEqualTo(401);
        assertThat(Files.readString(stored)).doesNotContain("alice");
        assertThat(TopologyCommandTest.gslb(
                                "token", "remove", "alice", "--admin", admin, "--token-file", local.toString())
                        .exit())
                .isEqualTo(1);
        TopologyCommandTest.Run removeLocal = TopologyCommandTest.gslb(
                "token", "remove", "local", "--admin", admin, "--token-file", local.toString());
        assertThat(removeLocal.exit()).isEqualTo(1);
        assertThat(removeLocal.err()).contains("local is the token in");
    }

    @Test
    void theExistingAdminTokenIsLocalAndSurvivesARestartWithTheNamedOnes() throws Exception {
        start();
        String operator = add("oncall", Role.OPERATOR);
        server.close();
        server = new GslbServer(Isolated.of(Isolated.embedded()).withStateDir(stateDir));
        server.start();
        admin = Isolated.adminUrl(server);
        assertThat(get(OLD_TOKEN, "/token/list").body())
                .contains("\"name\" : \"local\"", "\"role\" : \"admin\"", "\"name\" : \"oncall\"");
        assertThat(post(operator, "/ldns/delete?ip=192.0.2.1", "").statusCode())
                .as("an operator route, the token kept across the restart")
                .isEqualTo(404);
    }

    private static String sha256(String token) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    }
}
