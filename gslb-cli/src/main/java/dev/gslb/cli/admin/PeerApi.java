package dev.gslb.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.cli.config.ListenAddress;
import dev.gslb.sync.PeerSync;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Admin routes of peer sync: pair, join, list, remove. The join token is only ever in a body. */
public final class PeerApi {
    private final PeerSync sync;

    public PeerApi(PeerSync sync) {
        this.sync = sync;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/peer/pair", r -> {
                    List<InetSocketAddress> advertise = new ArrayList<>();
                    for (JsonNode a : Json.MAPPER.readTree(r.body().isBlank() ? "{}" : r.body()).path("advertise")) {
                        advertise.add(ListenAddress.parse(a.asText(), 8054));
                    }
                    PeerSync.Pairing p = sync.pair(advertise);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("token", p.token());
                    body.put("expires", p.expires().toString());
                    body.put("fingerprint", sync.fingerprint());
                    body.put("warnings", p.warnings());
                    return AdminServer.Response.json(200, Json.write(body));
                }),
                new AdminServer.Route("POST", "/peer/join", r -> {
                    JsonNode body = Json.MAPPER.readTree(r.body());
                    try {
                        String peer = sync.join(body.path("token").asText(""));
                        return AdminServer.Response.json(200, Json.write(Map.of("peer", peer)));
                    } catch (java.io.IOException e) { // unreachable, refused certificate: the join did not happen
                        return AdminServer.Response.json(502, Json.write(Map.of("error", e.getMessage())));
                    }
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
