package dev.gslb.server.admin;

import dev.gslb.api.PersistenceCleared;
import dev.gslb.api.PersistenceView;
import dev.gslb.api.Role;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.dns.wideip.PersistenceTable;
import dev.gslb.server.maintenance.NearNames;
import dev.gslb.topology.Address;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Admin routes of the persistence table (README "Persistence"): list the live entries (viewer),
 * clear some or all (operator). A clearing goes to the peers as each entry's removal, so a pair
 * that shares its entries clears on both sides.
 */
public final class PersistApi {
    public static final int DEFAULT_LIMIT = 1000;
    public static final int MAX_LIMIT = 10_000;

    private static final Comparator<PersistenceTable.Entry> ORDER = Comparator.comparing(
                    (PersistenceTable.Entry e) -> e.wideIp().toString())
            .thenComparing(PersistenceTable.Entry::hi, Long::compareUnsigned)
            .thenComparing(PersistenceTable.Entry::lo, Long::compareUnsigned);

    private final PersistenceTable table;
    private final Supplier<Authority> authority;
    private final Clock clock;

    public PersistApi(PersistenceTable table, Supplier<Authority> authority, Clock clock) {
        this.table = table;
        this.authority = authority;
        this.clock = clock;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/persist", Role.VIEWER, r -> list(r.param("wide-ip"), r.param("limit"))),
                new AdminServer.Route(
                        "POST", "/persist/clear", Role.OPERATOR, r -> clear(r.param("wide-ip"), r.param("ldns"))));
    }

    private AdminServer.Response list(String wideIp, String limitText) {
        int limit = limit(limitText);
        Name w = wideIp == null ? null : wideIp(wideIp);
        long now = clock.millis();
        List<PersistenceTable.Entry> found = new ArrayList<>();
        table.forEachLive(now, e -> {
            if (w == null || e.wideIp().equals(w)) {
                found.add(e);
            }
        });
        found.sort(ORDER);
        List<PersistenceView.Entry> shown = found.stream()
                .limit(limit)
                .map(e -> new PersistenceView.Entry(
                        text(e.wideIp()),
                        new Address(e.hi(), e.lo()).toString(),
                        e.server(),
                        Instant.ofEpochMilli(e.expiresAt()).toString()))
                .toList();
        return AdminServer.Response.ok(new PersistenceView(found.size(), limit, shown));
    }

    private AdminServer.Response clear(String wideIp, String ldns) {
        Name w = wideIp == null ? null : wideIp(wideIp);
        long now = clock.millis();
        Predicate<PersistenceTable.Entry> which = e -> w == null || e.wideIp().equals(w);
        String network = null;
        if (ldns != null) {
            Address a;
            try {
                a = Address.parse(ldns.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ldns=" + ldns + ": not an IP address");
            }
            QueryContext q = new QueryContext().set(a, Type.A, now);
            int v4 = table.prefix(true);
            int v6 = table.prefix(false);
            long hi = q.networkHi(v4, v6);
            long lo = q.networkLo(v4, v6);
            network = new Address(hi, lo) + "/" + (q.networkV4() ? v4 : v6);
            which = which.and(e -> e.hi() == hi && e.lo() == lo);
        }
        int n = table.clear(which, now);
        String target = (w == null ? "all wide IPs" : text(w)) + (network == null ? "" : " " + network);
        return AdminServer.Response.ok(new PersistenceCleared(n, w == null ? null : text(w), network))
                .changed(target, null, n + " entries cleared");
    }

    /** A configured wide IP; an unknown one is refused with the names near it. */
    private Name wideIp(String text) {
        Name n;
        try {
            n = Name.fromString(text.strip(), Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("wide-ip=" + text + ": not a domain name");
        }
        var known = authority.get().wideIps().keySet();
        if (!known.contains(n)) {
            List<String> names = known.stream().map(PersistApi::text).sorted().toList();
            List<String> near = NearNames.of(text(n), names);
            throw new IllegalArgumentException("no wide IP is named " + text
                    + (near.isEmpty()
                            ? "; known: " + String.join(", ", names)
                            : "; did you mean " + String.join(", ", near) + "?"));
        }
        return n;
    }

    private static int limit(String text) {
        if (text == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("limit=" + text + ": give 1.." + MAX_LIMIT);
    }

    private static String text(Name n) {
        String s = n.toString();
        return s.endsWith(".") && s.length() > 1 ? s.substring(0, s.length() - 1) : s;
    }
}
