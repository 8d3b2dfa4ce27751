package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.api.TopologyLoad;
import dev.gslb.api.TopologyLoads;
import dev.gslb.api.TopologyReport;
import dev.gslb.config.GslbConfig;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.server.GslbServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyChange;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The case over the real admin API: a one-line test list moves 61.136.178.229 from
 * chinanet (TEL) to a region of its own. A dry run reports the move and changes nothing; the load
 * is listed with who made it; an unload brings chinanet back; each state survives a restart of
 * the server on the same state folder; a viewer may list but not unload.
 */
class TopologyLoadsTest {
    static final String MOVED = "61.136.178.229";
    static final String LIST = "{\"files\": {\"/tmp/test.txt\": \"61.136.178.0/24\\n\"}}";

    private GslbServer server;
    private GslbConfig config;
    private String operator;
    private String viewer;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A server on {@code config}'s state folder, with the moved address known to its proximity table. */
    private void start() throws Exception {
        if (server != null) {
            server.close();
        }
        server = new GslbServer(config);
        server.start();
        server.proximity().touch(Address.parse(MOVED)); // as a query from that resolver records it
        server.proximity().touch(Address.parse("202.106.0.20"));
    }

    private HttpResponse<String> post(String token, String path, String body) throws Exception {
        return new AdminHttp(server).post(token, path, body);
    }

    private HttpResponse<String> get(String token, String path) throws Exception {
        return new AdminHttp(server).get(token, path);
    }

    private String region() throws Exception {
        JsonNode n =
                Json.MAPPER.readTree(get(viewer, "/topology/lookup?ip=" + MOVED).body());
        return n.path("region").asText() + " -> "
                + (n.hasNonNull("best") ? n.get("best").asText() : "no record");
    }

    private TopologyLoads loads() throws Exception {
        HttpResponse<String> r = get(viewer, "/topology/loads");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readValue(r.body(), TopologyLoads.class);
    }

    private static TopologyReport ok(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readValue(r.body(), TopologyReport.class);
    }

    private String token(String name, Role role) throws Exception {
        String admin = AdminToken.read(config.admin().tokenFile());
        HttpResponse<String> r = post(admin, "/token/add", Json.write(new TokenRequest(name, role)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readValue(r.body(), TokenAdded.class).token();
    }

    @Test
    void aDryRunReportsTheMoveAndAnUnloadTakesItBackAcrossRestarts() throws Exception {
        config = Isolated.embedded();
        start();
        operator = token("oncall", Role.OPERATOR);
        viewer = token("dashboard", Role.VIEWER);
        assertThat(region()).isEqualTo("chinanet -> TEL");
        long generation = server.syncGroup().version().generation();

        TopologyReport dry = ok(post(operator, "/topology/load?dry-run=true", LIST));
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.name()).as("named after the file").isEqualTo("test");
        TopologyChange c = dry.change();
        assertThat(c.added()).isEqualTo(1);
        assertThat(c.prefixes()).containsExactly(new TopologyChange.PrefixChange("61.136.178.0/24", null, "test"));
        assertThat(c.regions()).containsExactly(new TopologyChange.RegionChange("test", 0, 1));
        assertThat(c.ldnsKnown()).isEqualTo(2);
        assertThat(c.ldnsMoved()).isEqualTo(1);
        assertThat(c.ldns()).containsExactly(new TopologyChange.LdnsMove(MOVED, "chinanet", "TEL", "test", null));
        assertThat(region()).as("a dry run changes nothing").isEqualTo("chinanet -> TEL");
        assertThat(loads().loads()).isEmpty();
        assertThat(server.syncGroup().version().generation())
                .as("nor the configuration")
                .isEqualTo(generation);

        TopologyReport loaded = ok(post(operator, "/topology/load", LIST));
        assertThat(loaded.dryRun()).isFalse();
        assertThat(loaded.change().ldnsMoved()).isEqualTo(1);
        assertThat(region()).isEqualTo("test -> no record");
        assertThat(server.syncGroup().version().generation()).isEqualTo(generation + 1);
        TopologyLoads.Load l = loads().loads().getFirst();
        assertThat(l.name()).isEqualTo("test");
        assertThat(l.source()).isEqualTo("/tmp/test.txt");
        assertThat(l.prefixes()).isEqualTo(1);
        assertThat(l.regions()).isEqualTo(Map.of("test", 1));
        assertThat(l.by()).isEqualTo("oncall");
        assertThat(l.at()).isNotNull();

        assertThat(post(viewer, "/topology/unload?name=test", "").statusCode())
                .as("a viewer may list, not unload")
                .isEqualTo(403);
        assertThat(post(operator, "/topology/load?dry-run=maybe", LIST).statusCode())
                .isEqualTo(400);

        start(); // the same state folder
        assertThat(region()).as("the load survives a restart").isEqualTo("test -> no record");
        assertThat(loads().loads()).extracting(TopologyLoads.Load::by).containsExactly("oncall");

        TopologyReport dryUnload = ok(post(operator, "/topology/unload?name=test&dry-run=true", ""));
        assertThat(dryUnload.change().removed()).isEqualTo(1);
        assertThat(dryUnload.change().ldns())
                .containsExactly(new TopologyChange.LdnsMove(MOVED, "test", null, "chinanet", "TEL"));
        assertThat(region()).isEqualTo("test -> no record");

        ok(post(operator, "/topology/unload?name=test", ""));
        assertThat(region()).as("the configured region is back").isEqualTo("chinanet -> TEL");
        assertThat(loads().loads()).isEmpty();
        HttpResponse<String> again = post(operator, "/topology/unload?name=test", "");
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(again.body()).contains("nothing was loaded at run time");

        start();
        assertThat(region()).as("the unload survives a restart").isEqualTo("chinanet -> TEL");

        String audit = get(operator, "/audit").body();
        assertThat(audit).contains("load test (dry run)", "\"load test\"", "\"unload test\"", "oncall");
    }

    @Test
    void aRevertDropsEveryLoadAndStaysDropped() throws Exception {
        config = Isolated.embedded();
        start();
        operator = token("oncall", Role.OPERATOR);
        viewer = operator;
        ok(post(operator, "/topology/load", LIST));
        ok(post(
                operator,
                "/topology/load",
                Json.write(new TopologyLoad("unicom", Map.of("/tmp/lab.txt", "198.18.0.0/15\n"), "lab"))));
        assertThat(loads().loads()).extracting(TopologyLoads.Load::name).containsExactly("test", "lab");
        assertThat(loads().loads().get(1).region()).isEqualTo("unicom");

        JsonNode hidden = Json.MAPPER.readTree(
                get(operator, "/topology/lookup?ip=202.106.0.20").body());
        assertThat(hidden.path("region").asText())
                .as("a load of region unicom replaced the configured unicom")
                .isNotEqualTo("unicom");

        TopologyReport dry = ok(post(operator, "/topology/revert?dry-run=true", ""));
        assertThat(dry.change().removed())
                .as("61.136.178.0/24 and 198.18.0.0/15")
                .isEqualTo(2);
        assertThat(dry.change().added()).as("the configured unicom").isGreaterThan(3000);
        assertThat(dry.change().ldnsMoved()).isEqualTo(2);
        assertThat(dry.change().ldns())
                .filteredOn(m -> m.ip().equals("202.106.0.20"))
                .singleElement()
                .extracting(TopologyChange.LdnsMove::regionAfter, TopologyChange.LdnsMove::bestAfter)
                .containsExactly("unicom", "CNC");
        assertThat(loads().loads()).hasSize(2);

        ok(post(operator, "/topology/revert", ""));
        assertThat(loads().loads()).isEmpty();
        assertThat(region()).isEqualTo("chinanet -> TEL");
        JsonNode unicom = Json.MAPPER.readTree(
                get(operator, "/topology/lookup?ip=202.106.0.20").body());
        assertThat(unicom.path("region").asText())
                .as("the configured unicom is back")
                .isEqualTo("unicom");
        start();
        assertThat(loads().loads()).isEmpty();
        assertThat(region()).isEqualTo("chinanet -> TEL");
    }
}
