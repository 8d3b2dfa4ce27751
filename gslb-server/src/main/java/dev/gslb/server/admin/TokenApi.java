package dev.gslb.server.admin;

import dev.gslb.api.Json;
import dev.gslb.api.Removed;
import dev.gslb.api.Role;
import dev.gslb.api.TokenAdded;
import dev.gslb.api.TokenRequest;
import dev.gslb.server.access.Tokens;
import java.util.List;

/**
 * The tokens of this instance (`gslb token`): add (the new token is in the answer once, and kept
 * only as its hash), list, remove. Admin only: a token can give any role.
 */
public final class TokenApi {
    private final Tokens tokens;

    public TokenApi(Tokens tokens) {
        this.tokens = tokens;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("POST", "/token/add", Role.ADMIN, this::add, AdminServer.Body.COMMAND),
                new AdminServer.Route("GET", "/token/list", Role.ADMIN, r -> AdminServer.Response.ok(tokens.list())),
                new AdminServer.Route("POST", "/token/remove", Role.ADMIN, this::remove));
    }

    private AdminServer.Response add(AdminServer.Request r) throws java.io.IOException {
        TokenRequest req = Json.MAPPER.readValue(r.body(), TokenRequest.class);
        if (req == null) {
            throw new IllegalArgumentException("give {\"name\": NAME, \"role\": ROLE}");
        }
        try {
            TokenAdded added = tokens.add(req.name(), req.role());
            return AdminServer.Response.ok(added)
                    .changed(added.name(), null, added.role().label());
        } catch (IllegalStateException e) { // the name is taken, the file full, or no tokens asked
            return AdminServer.Response.error(409, e.getMessage()).changed(req.name(), null, null);
        }
    }

    private AdminServer.Response remove(AdminServer.Request r) throws java.io.IOException {
        String name = r.param("name");
        Role before = tokens.role(name);
        boolean removed;
        try {
            removed = name != null && tokens.remove(name);
        } catch (IllegalStateException e) { // no tokens asked
            return AdminServer.Response.error(409, e.getMessage()).changed(name, null, null);
        }
        return AdminServer.Response.json(removed ? 200 : 404, Json.write(new Removed(removed, String.valueOf(name))))
                .changed(name, before == null ? null : before.label(), removed ? "removed" : null);
    }
}
