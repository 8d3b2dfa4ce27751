package dev.gslb.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.sync.PeerSync;
import java.util.List;
import java.util.Map;

/** Admin routes of peer sync: pair, join, list. Listings carry no key. */
public final class PeerApi {
    private final PeerSync sync;

    public PeerApi(PeerSync sync) {
        this.sync = sync;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/peer/pair", r -> {
                    PeerSync.Pairing p = sync.pair();
                    return AdminServer.Response.json(200, Json.write(Map.of("command", "gslb peer join " + p.token(),
                            "expires", p.expires().toString())));
                }),
                new AdminServer.Route("POST", "/peer/join", r -> {
                    JsonNode body = Json.MAPPER.readTree(r.body());
                    String peer = sync.join(body.path("token").asText(""));
                    return AdminServer.Response.json(200, Json.write(Map.of("peer", peer)));
                }),
                new AdminServer.Route("GET", "/peer/list", r -> AdminServer.Response.json(200, Json.write(sync.status()))),
                new AdminServer.Route("POST", "/peer/remove", r -> {
                    String name = r.param("name");
                    boolean removed = name != null && sync.remove(name);
                    return AdminServer.Response.json(removed ? 200 : 404, Json.write(Map.of("removed", removed,
                            "peer", String.valueOf(name))));
                }));
    }
}
