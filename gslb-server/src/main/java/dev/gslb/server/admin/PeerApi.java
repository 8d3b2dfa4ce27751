package dev.gslb.server.admin;

import dev.gslb.api.JoinRequest;
import dev.gslb.api.Joined;
import dev.gslb.api.Json;
import dev.gslb.api.PairRequest;
import dev.gslb.api.PairingView;
import dev.gslb.api.Removed;
import dev.gslb.api.Role;
import dev.gslb.settings.HostPort;
import dev.gslb.sync.PeerSync;
import dev.gslb.sync.SyncSettings;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Admin routes of peer sync: pair, join, list, remove. The join token is only ever in a body. */
public final class PeerApi {
    private final PeerSync sync;

    public PeerApi(PeerSync sync) {
        this.sync = sync;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/peer/pair", Role.ADMIN, this::pair, AdminServer.Body.COMMAND),
                new AdminServer.Route("POST", "/peer/join", Role.ADMIN, this::join, AdminServer.Body.COMMAND),
                new AdminServer.Route("GET", "/peer/list", Role.VIEWER, r -> AdminServer.Response.ok(sync.status())),
                new AdminServer.Route("POST", "/peer/remove", Role.ADMIN, r -> {
                    String name = r.param("name");
                    boolean removed = name != null && sync.remove(name);
                    return AdminServer.Response.json(
                                    removed ? 200 : 404, Json.write(new Removed(removed, String.valueOf(name))))
                            .changed(name, removed ? "paired" : null, removed ? "removed" : null);
                }));
    }

    private AdminServer.Response pair(AdminServer.Request r) throws java.io.IOException {
        PairRequest req = r.body().isBlank()
                ? new PairRequest(List.of(), null, false)
                : Json.MAPPER.readValue(r.body(), PairRequest.class);
        List<InetSocketAddress> advertise = new ArrayList<>();
        for (String a : req.advertise() == null ? List.<String>of() : req.advertise()) {
            advertise.add(HostPort.parse(a, SyncSettings.DEFAULT_PORT));
        }
        PeerSync.Pairing p = sync.pair(advertise, req.dataCenter(), req.allowSharedDataCenter());
        return AdminServer.Response.ok(
                new PairingView(p.token(), p.expires().toString(), sync.fingerprint(), p.warnings()));
    }

    private AdminServer.Response join(AdminServer.Request r) throws java.io.IOException {
        JoinRequest req = Json.MAPPER.readValue(r.body(), JoinRequest.class);
        try {
            String peer = sync.join(req.token() == null ? "" : req.token());
            return AdminServer.Response.ok(new Joined(peer)).changed(peer, null, "paired");
        } catch (java.io.IOException e) { // unreachable, refused certificate: the join did not happen
            return AdminServer.Response.error(502, e.getMessage());
        }
    }
}
