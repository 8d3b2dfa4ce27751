package dev.gslb.server.admin;

import dev.gslb.api.DnssecChange;
import dev.gslb.api.DnssecChanged;
import dev.gslb.api.Json;
import dev.gslb.api.Role;
import dev.gslb.server.dnssec.ZoneKeyStore;
import java.util.List;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/** Admin routes of the signed zones' keys: their state, the DS for the parent, a roll, the parent's DS submitted. */
public final class DnssecApi {
    private final ZoneKeyStore keys;

    public DnssecApi(ZoneKeyStore keys) {
        this.keys = keys;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/dnssec", Role.VIEWER, r -> AdminServer.Response.ok(keys.view())),
                new AdminServer.Route(
                        "GET",
                        "/dnssec/ds",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(keys.ds(zone(r.required("zone"))))),
                new AdminServer.Route(
                        "POST",
                        "/dnssec/roll",
                        Role.OPERATOR,
                        r -> {
                            DnssecChange c = change(r, true);
                            return done(() -> keys.roll(zone(c.zone()), c.kind()), "roll " + c.kind());
                        },
                        AdminServer.Body.COMMAND),
                new AdminServer.Route(
                        "POST",
                        "/dnssec/submitted",
                        Role.OPERATOR,
                        r -> {
                            Name zone = zone(change(r, false).zone());
                            return done(() -> keys.submitted(zone), "DS submitted");
                        },
                        AdminServer.Body.COMMAND));
    }

    private static DnssecChange change(AdminServer.Request r, boolean kind) throws Exception {
        DnssecChange c = Json.MAPPER.readValue(r.body(), DnssecChange.class);
        if (c == null || c.zone() == null || c.zone().isBlank() || kind && c.kind() == null) {
            throw new IllegalArgumentException(kind ? "give the zone and ksk or zsk" : "give the zone");
        }
        return c;
    }

    /** A roll refused as things are (one going on, a key given as a file): 409, nothing changed. */
    private static AdminServer.Response done(Callable call, String what) throws Exception {
        try {
            DnssecChanged c = call.get();
            return AdminServer.Response.ok(c).changed("dnssec " + c.zone(), null, what);
        } catch (IllegalStateException e) {
            return AdminServer.Response.error(409, e.getMessage());
        }
    }

    @FunctionalInterface
    private interface Callable {
        DnssecChanged get() throws Exception;
    }

    static Name zone(String text) {
        try {
            return Name.fromString(text.length() > 255 ? text.substring(0, 255) : text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a zone name: " + e.getMessage());
        }
    }
}
