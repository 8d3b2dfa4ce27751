package dev.gslb.server.admin;

import dev.gslb.api.ConfigStatus;
import dev.gslb.api.LdnsView;
import dev.gslb.api.LinkStatus;
import dev.gslb.api.PeerStatus;
import dev.gslb.api.Role;
import dev.gslb.api.ServerStatus;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.wideip.AnswerStatistics;
import dev.gslb.dns.wideip.Explanation;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.sync.PeerSync;
import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.load.LiveTopology;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.xbill.DNS.Type;

/**
 * The status page (docs/operator-guide.md "The status page"): {@code GET /} serves a read-only page
 * bundled in the jar (plain HTML, CSS and JavaScript, no network), which polls the JSON under
 * {@code /status/api/}. Everything it shows is paged or summed here, never the whole proximity
 * table: the first view of a table of a million LDNS costs one pass over it.
 */
public final class StatusPage {
    public static final String PREFIX = "/status/";
    static final int MAX_ROWS = 100;
    /** RTT histogram bucket upper edges, in milliseconds (the last bucket is everything above). */
    static final int[] RTT_EDGES_MS = {5, 10, 20, 50, 100, 200, 500, 1000};

    /** Where the page's figures come from. */
    public record Sources(
            String instance,
            String dataCenter,
            List<String> dataCenters,
            Supplier<Authority> authority,
            Supplier<List<LinkStatus>> links,
            Supplier<List<ServerStatus>> servers,
            PeerSync peers,
            Supplier<ConfigStatus> config,
            ProximityTable proximity,
            LdnsApi ldns,
            ResolveApi resolve,
            Supplier<AnswerStatistics> statistics,
            LiveTopology topology) {}

    /** GET /status/api/overview. */
    public record Overview(
            String instance,
            String dataCenter,
            List<String> dataCenters,
            List<String> wideIps,
            ConfigStatus config,
            List<LinkStatus> links,
            List<ServerStatus> servers,
            List<PeerStatus> peers,
            long ldns,
            Map<String, Long> ldnsByState) {}

    /** One LDNS of a search, with where it is sent now (for the first wide IP). */
    public record LdnsRow(LdnsView ldns, String sentTo, String decidedBy) {}

    /** GET /status/api/ldns: one page of a search. */
    public record LdnsPage(String query, long matched, int offset, String wideIp, List<LdnsRow> rows) {}

    /** One region's scores per data center (the topology grid). */
    public record RegionRow(String region, int prefixes, Map<String, Long> scores) {}

    /** GET /status/api/charts. */
    public record Charts(
            int[] rttEdgesMs,
            Map<String, long[]> rttHistogram,
            AnswerStatistics.Timeline answers,
            List<String> dataCenters,
            List<RegionRow> regions) {}

    /**
     * Searches that walk the whole table at once (the page needs no token: a browser or script
     * repeating them must not take the CPU the DNS threads need); more are answered 503.
     */
    static final int MAX_SEARCHES = 2;

    final java.util.concurrent.Semaphore searches = new java.util.concurrent.Semaphore(MAX_SEARCHES);
    private final Sources s;

    public StatusPage(Sources sources) {
        this.s = sources;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/", Role.VIEWER, r -> asset("index.html", "text/html; charset=utf-8")),
                new AdminServer.Route(
                        "GET", PREFIX + "app.js", Role.VIEWER, r -> asset("app.js", "text/javascript; charset=utf-8")),
                new AdminServer.Route(
                        "GET", PREFIX + "app.css", Role.VIEWER, r -> asset("app.css", "text/css; charset=utf-8")),
                new AdminServer.Route(
                        "GET", PREFIX + "api/overview", Role.VIEWER, r -> AdminServer.Response.ok(overview())),
                new AdminServer.Route(
                        "GET",
                        PREFIX + "api/ldns",
                        Role.VIEWER,
                        r -> search(r.param("q"), number(r.param("offset"), 0), number(r.param("limit"), 25))),
                new AdminServer.Route(
                        "GET", PREFIX + "api/charts", Role.VIEWER, r -> AdminServer.Response.ok(charts())),
                new AdminServer.Route(
                        "GET",
                        PREFIX + "api/why",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(s.resolve()
                                .explain(r.param("name"), r.param("ldns"), r.param("ecs"), r.param("type")))));
    }

    private static int number(String text, int otherwise) {
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Math.max(0, Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number");
        }
    }

    private static AdminServer.Response asset(String name, String type) throws IOException {
        try (InputStream in = StatusPage.class.getResourceAsStream("/status/" + name)) {
            if (in == null) {
                return AdminServer.Response.error(404, "the status page is not in this build");
            }
            return new AdminServer.Response(200, new String(in.readAllBytes(), StandardCharsets.UTF_8), type);
        }
    }

    Overview overview() {
        long[] byState = s.proximity().countByState();
        long n = 0;
        Map<String, Long> states = new LinkedHashMap<>();
        for (LdnsEntry.State st : LdnsEntry.State.values()) {
            n += byState[st.ordinal()];
            if (byState[st.ordinal()] > 0) {
                states.put(st.name().toLowerCase(Locale.ROOT), byState[st.ordinal()]);
            }
        }
        return new Overview(
                s.instance(),
                s.dataCenter(),
                s.dataCenters(),
                wideIps().stream().map(w -> w.name().toString()).toList(),
                s.config().get(),
                s.links().get(),
                s.servers().get(),
                s.peers().status(),
                n,
                states);
    }

    private List<WideIp> wideIps() {
        List<WideIp> all = new ArrayList<>(s.authority().get().wideIps().values());
        all.sort((a, b) -> a.name().compareTo(b.name()));
        return all;
    }

    /**
     * A search of the table, at most {@value #MAX_SEARCHES} at once. Only the first page of all
     * is no search: a later page walks the table up to its offset.
     */
    AdminServer.Response search(String query, int offset, int limit) {
        if ((query == null || query.isBlank()) && offset == 0) {
            return AdminServer.Response.ok(ldns(query, offset, limit));
        }
        if (!searches.tryAcquire()) {
            return AdminServer.Response.error(503, "too many searches at once; try again");
        }
        try {
            return AdminServer.Response.ok(ldns(query, offset, limit));
        } finally {
            searches.release();
        }
    }

    /**
     * LDNS whose address starts with {@code query}, or that lie in it when it is a CIDR; a page of
     * them in table order, each with the data center the first wide IP sends it to now.
     */
    LdnsPage ldns(String query, int offset, int limit) {
        String q = query == null ? "" : query.strip();
        Cidr cidr = null;
        if (q.contains("/")) {
            cidr = Cidr.parse(q);
        }
        int size = Math.min(Math.max(limit, 1), MAX_ROWS);
        List<Map.Entry<Address, LdnsEntry>> page = new ArrayList<>();
        long matched = 0;
        for (Map.Entry<Address, LdnsEntry> e : s.proximity().entries()) {
            Address a = e.getKey();
            boolean hit = q.isEmpty()
                    || (cidr != null
                            ? cidr.contains(a.hi(), a.lo())
                            : a.toString().startsWith(q));
            if (hit) {
                if (matched >= offset && page.size() < size) {
                    page.add(Map.entry(a, e.getValue()));
                }
                matched++;
                if (q.isEmpty() && page.size() == size) { // everything matches: the table's size says how much
                    matched = s.proximity().size();
                    break;
                }
            }
        }
        List<WideIp> wideIps = page.isEmpty() ? List.of() : wideIps();
        WideIp first = wideIps.isEmpty() ? null : wideIps.getFirst();
        List<LdnsRow> rows = new ArrayList<>();
        for (Map.Entry<Address, LdnsEntry> e : page) {
            String sentTo = null;
            String by = null;
            if (first != null) {
                Explanation x =
                        s.resolve().explain(first.name().toString(), e.getKey().toString(), null, a(e.getKey()));
                sentTo = x.answers().isEmpty() ? null : x.answers().getFirst().dataCenter();
                by = x.decidedBy() == null ? x.failure() : x.decidedBy().method();
            }
            rows.add(new LdnsRow(s.ldns().view(e.getKey(), e.getValue()), sentTo, by));
        }
        return new LdnsPage(
                q, matched, offset, first == null ? null : first.name().toString(), rows);
    }

    /** Asked as a resolver of that family would ask: A from an IPv4 LDNS, AAAA from an IPv6 one. */
    private static String a(Address key) {
        return key.inetAddress() instanceof java.net.Inet4Address ? Type.string(Type.A) : Type.string(Type.AAAA);
    }

    private volatile Charts charts;
    private volatile long chartsAt;

    /** The pictures' figures; the histogram walks the whole table, so it is made at most every 5 s. */
    synchronized Charts charts() { // one walk at a time: concurrent pollers share its result
        long now = System.currentTimeMillis();
        Charts c = charts;
        if (c != null && now - chartsAt < 5_000) {
            return c;
        }
        Map<String, long[]> histogram = new TreeMap<>();
        s.proximity().forEachEntry(e -> {
            for (int i = 0; i < e.pathCount(); i++) { // by index: no Path made per path
                long[] h = histogram.computeIfAbsent(e.dataCenter(i), k -> new long[RTT_EDGES_MS.length + 1]);
                h[bucket(e.rttMicros(i) / 1000)]++;
            }
        });
        c = new Charts(RTT_EDGES_MS, histogram, s.statistics().get().timeline(now), s.dataCenters(), regions());
        charts = c;
        chartsAt = now;
        return c;
    }

    private static int bucket(int ms) {
        for (int i = 0; i < RTT_EDGES_MS.length; i++) {
            if (ms < RTT_EDGES_MS[i]) {
                return i;
            }
        }
        return RTT_EDGES_MS.length;
    }

    /** Regions with records first (by name), then the others, at most 60: each data center's score. */
    private List<RegionRow> regions() {
        var table = s.topology().table();
        Map<String, Map<String, Long>> scores = new TreeMap<>();
        for (TopologyRecord r : table.records()) {
            if (r.targetsDataCenter() && !r.region().startsWith(TopologyRecord.NOT)) {
                scores.computeIfAbsent(r.region(), k -> new TreeMap<>()).merge(r.dataCenter(), r.score(), Math::max);
            }
        }
        Map<String, Integer> sizes = new TreeMap<>();
        for (Region r : table.regions()) {
            sizes.merge(r.name(), r.prefixes().size(), Integer::sum);
        }
        List<RegionRow> rows = new ArrayList<>();
        scores.forEach((region, sc) -> rows.add(new RegionRow(region, sizes.getOrDefault(region, 1), sc)));
        sizes.forEach((region, n) -> {
            if (!scores.containsKey(region) && rows.size() < 60) {
                rows.add(new RegionRow(region, n, Map.of()));
            }
        });
        return rows.size() > 60 ? rows.subList(0, 60) : rows;
    }
}
