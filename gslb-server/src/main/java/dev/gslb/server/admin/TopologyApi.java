package dev.gslb.server.admin;

import dev.gslb.api.BindViewsImport;
import dev.gslb.api.BindViewsImported;
import dev.gslb.api.Json;
import dev.gslb.api.Refusal;
import dev.gslb.api.Role;
import dev.gslb.api.TopologyListing;
import dev.gslb.api.TopologyLoad;
import dev.gslb.api.TopologyLoads;
import dev.gslb.api.TopologyLookup;
import dev.gslb.api.TopologyReport;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyChange;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import dev.gslb.topology.load.BindViews;
import dev.gslb.topology.load.LiveTopology;
import dev.gslb.topology.load.RuntimeLoad;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Admin routes of the topology table: lookup, list, reload, and the run-time loads: load and
 * import (each with a dry run), list, unload, revert. Every answer that changes the table (or
 * would, on a dry run) says what changes against the table in service, the LDNS the proximity
 * table knows included.
 */
public final class TopologyApi {
    /** The most examples of each kind an answer may ask for ({@code ?examples=N}). */
    static final int MAX_EXAMPLES = 1000;

    static final String KEPT = "the table in service is the previous one";

    private final LiveTopology topology;
    private final String instance;
    private final Iterable<Address> ldns;
    private final Consumer<List<RuntimeLoad>> loadsChanged;
    /** One run-time change at a time: each is prepared over the loads the one before left. */
    private final Object changing = new Object();

    /**
     * {@code ldns} are the resolvers the proximity table knows (looked up in both tables of a
     * change); {@code loadsChanged} hears the run-time loads after every change that went into
     * service (the sync group keeps them and sends them to the peers).
     */
    public TopologyApi(
            LiveTopology topology, String instance, Iterable<Address> ldns, Consumer<List<RuntimeLoad>> loadsChanged) {
        this.topology = topology;
        this.instance = instance;
        this.ldns = ldns;
        this.loadsChanged = loadsChanged;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route(
                        "GET",
                        "/topology/lookup",
                        Role.VIEWER,
                        r -> AdminServer.Response.ok(lookup(topology.table(), r.param("ip")))),
                new AdminServer.Route(
                        "GET", "/topology/list", Role.VIEWER, r -> AdminServer.Response.ok(listing(topology))),
                new AdminServer.Route(
                        "GET", "/topology/loads", Role.VIEWER, r -> AdminServer.Response.ok(loads(topology))),
                new AdminServer.Route("POST", "/topology/reload", Role.OPERATOR, this::reload),
                new AdminServer.Route(
                        "POST",
                        "/topology/load",
                        Role.OPERATOR,
                        r -> {
                            TopologyLoad req = Json.MAPPER.readValue(r.body(), TopologyLoad.class);
                            if (req.files() == null || req.files().isEmpty()) {
                                throw new IllegalArgumentException("no files in the request");
                            }
                            String name = req.name() != null
                                    ? req.name()
                                    : RuntimeLoad.nameOf(
                                            req.files().keySet().iterator().next());
                            RuntimeLoad l =
                                    new RuntimeLoad(name, req.files(), req.region(), r.who(), instance, Instant.now());
                            return answer("load " + name, () -> run(r, name, () -> topology.loading(l)), rep -> rep);
                        },
                        AdminServer.Body.UPLOAD),
                new AdminServer.Route(
                        "POST",
                        "/topology/import/bind-views",
                        Role.OPERATOR,
                        r -> {
                            BindViewsImport req = Json.MAPPER.readValue(r.body(), BindViewsImport.class);
                            if (req.files() == null || req.files().isEmpty()) {
                                throw new IllegalArgumentException("no named.conf in the request");
                            }
                            return bindViews(r, req);
                        },
                        AdminServer.Body.UPLOAD),
                new AdminServer.Route("POST", "/topology/unload", Role.OPERATOR, r -> {
                    String name = r.required("name");
                    dryRun(r); // a bad argument is a 400, before the name is looked for
                    examples(r);
                    try {
                        return answer("unload " + name, () -> run(r, name, () -> topology.unloading(name)), rep -> rep);
                    } catch (IllegalArgumentException e) { // no load of that name
                        return AdminServer.Response.error(404, e.getMessage()).changed("unload " + name, null, null);
                    }
                }),
                new AdminServer.Route(
                        "POST",
                        "/topology/revert",
                        Role.OPERATOR,
                        r -> answer("revert", () -> run(r, null, topology::reverting), rep -> rep)));
    }

    /** named.conf's views as regions and records, loaded like `gslb topology load`: all or nothing. */
    private AdminServer.Response bindViews(AdminServer.Request r, BindViewsImport req) throws Exception {
        String name = req.name() != null ? req.name() : "bind-views";
        String target = "import bind-views " + name;
        try {
            BindViews b = BindViews.read(new LinkedHashMap<>(req.files()));
            List<String> notes = new ArrayList<>(b.notTranslated());
            Map<String, String> map = req.map() == null ? Map.of() : req.map();
            BindViews.Translation t = b.topology(map, topology.spec().dataCenters(), notes);
            Map<String, String> texts = t.texts();
            List<BindViewsImported.View> views = b.views().stream()
                    .filter(v -> texts.containsKey(v.region()))
                    .map(v -> new BindViewsImported.View(
                            v.name(),
                            v.region(),
                            texts.get(v.region()).split("\n").length,
                            t.dataCenter().get(v.region())))
                    .toList();
            if (texts.isEmpty()) {
                notes.add("nothing to load");
                return AdminServer.Response.refused(new Refusal(notes, KEPT)).changed(target, null, null);
            }
            RuntimeLoad l = new RuntimeLoad(name, texts, null, r.who(), instance, Instant.now());
            return answer(
                    target,
                    () -> run(r, name, () -> topology.loading(l)),
                    rep -> new BindViewsImported(views, notes, rep));
        } catch (TopologyException e) {
            return AdminServer.Response.refused(new Refusal(e.problems(), KEPT)).changed(target, null, null);
        }
    }

    /** What a change built (not yet in service). */
    @FunctionalInterface
    private interface Preparing {
        LiveTopology.Prepared prepare() throws TopologyException;
    }

    @FunctionalInterface
    private interface Change {
        TopologyReport run() throws TopologyException;
    }

    /**
     * Prepares a run-time change, puts it in service unless {@code ?dry-run=true} (and tells the
     * sync group the loads now in service), and reports what it changes against the table that
     * was in service: one at a time, so each is prepared over what the one before left.
     */
    private TopologyReport run(AdminServer.Request r, String name, Preparing preparing) throws TopologyException {
        boolean dry = dryRun(r);
        int examples = examples(r);
        synchronized (changing) {
            long start = System.nanoTime();
            TopologyTable before = topology.table();
            LiveTopology.Prepared p = preparing.prepare();
            LiveTopology.LoadReport lr = p.report(start);
            if (!dry) {
                p.commit();
                // what is in service now: a peer's generation applied since the commit wins, as any newer one does
                loadsChanged.accept(topology.loads());
            }
            return report(name, dry, lr, TopologyChange.between(before, p.table(), ldns, examples));
        }
    }

    /**
     * 200 with {@code body} of the report, 409 when a peer's change came in between, or 422 with
     * every problem; on a dry run, a 409 or a 422 the table in service is unchanged.
     */
    private AdminServer.Response answer(String target, Change change, Function<TopologyReport, Object> body) {
        String before = size(topology.table());
        try {
            TopologyReport rep = change.run();
            AdminServer.Response ok = AdminServer.Response.ok(body.apply(rep));
            return rep.dryRun()
                    ? ok.changed(target + " (dry run)", null, null)
                    : ok.changed(target, before, size(topology.table()));
        } catch (TopologyException e) {
            return AdminServer.Response.refused(new Refusal(e.problems(), KEPT)).changed(target, null, null);
        } catch (LiveTopology.Overtaken e) { // the loads changed under the change: prepared over others
            return AdminServer.Response.error(409, e.getMessage()).changed(target, null, null);
        }
    }

    private AdminServer.Response reload(AdminServer.Request r) {
        int examples = examples(r);
        return answer(
                "reload",
                () -> {
                    synchronized (changing) {
                        TopologyTable before = topology.table();
                        LiveTopology.LoadReport lr = topology.reload();
                        return report(
                                null, false, lr, TopologyChange.between(before, topology.table(), ldns, examples));
                    }
                },
                rep -> rep);
    }

    private static TopologyReport report(String name, boolean dry, LiveTopology.LoadReport r, TopologyChange c) {
        return new TopologyReport(
                name, dry, r.loaded(), r.regions(), r.prefixes(), r.took().toMillis(), r.warnings(), c);
    }

    /** {@code ?dry-run=true} (or a bare {@code ?dry-run}): prepare and report, serve nothing. */
    static boolean dryRun(AdminServer.Request r) {
        String v = r.param("dry-run");
        if (v == null || v.equals("false")) {
            return false;
        }
        if (v.isEmpty() || v.equals("true")) {
            return true;
        }
        throw new IllegalArgumentException("give ?dry-run=true or false, not '" + v + "'");
    }

    /** {@code ?examples=N}: how many prefixes, records and LDNS of each kind the answer shows. */
    static int examples(AdminServer.Request r) {
        String v = r.param("examples");
        if (v == null) {
            return TopologyChange.EXAMPLES;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 0 && n <= MAX_EXAMPLES) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("give ?examples=0.." + MAX_EXAMPLES + ", not '" + v + "'");
    }

    /** The table as the audit log writes it. */
    private static String size(TopologyTable t) {
        return t.regions().size() + " regions, " + t.prefixCount() + " prefixes";
    }

    public static TopologyLookup lookup(TopologyTable table, String ip) {
        if (ip == null || ip.isBlank()) {
            throw new IllegalArgumentException("give ?ip=ADDRESS");
        }
        Address address = Address.parse(ip);
        TopologyMatch m = table.lookup(address.hi(), address.lo());
        return m == null
                ? new TopologyLookup(ip, false, null, null, null, List.of())
                : new TopologyLookup(ip, true, m.prefix(), m.region(), m.bestDataCenter(), m.scores());
    }

    public static TopologyListing listing(LiveTopology topology) {
        TopologyTable t = topology.table();
        List<TopologyListing.RegionSummary> regions = t.regions().stream()
                .map(r -> new TopologyListing.RegionSummary(r.name(), r.ipv4Count(), r.ipv6Count()))
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .toList();
        return new TopologyListing(
                String.valueOf(topology.loadedAt()), t.prefixCount(), regions, t.records(), t.warnings());
    }

    /** What was loaded at run time, in the order it applies. */
    public static TopologyLoads loads(LiveTopology topology) {
        List<TopologyLoads.Load> out = new ArrayList<>();
        for (RuntimeLoad l : topology.loads()) {
            Map<String, Integer> counts = topology.countsOf(l.name());
            counts = counts == null ? Map.of() : counts;
            out.add(new TopologyLoads.Load(
                    l.name(),
                    l.source(),
                    List.copyOf(l.texts().keySet()),
                    l.region(),
                    counts.values().stream().mapToInt(Integer::intValue).sum(),
                    counts,
                    l.by(),
                    l.instance(),
                    l.at() == null ? null : l.at().toString()));
        }
        return new TopologyLoads(out);
    }
}
