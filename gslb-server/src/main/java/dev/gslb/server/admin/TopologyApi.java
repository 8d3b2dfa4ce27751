package dev.gslb.server.admin;

import dev.gslb.api.BindViewsImport;
import dev.gslb.api.BindViewsImported;
import dev.gslb.api.Json;
import dev.gslb.api.Refusal;
import dev.gslb.api.Role;
import dev.gslb.api.TopologyListing;
import dev.gslb.api.TopologyLoad;
import dev.gslb.api.TopologyLookup;
import dev.gslb.api.TopologyReport;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import dev.gslb.topology.load.BindViews;
import dev.gslb.topology.load.LiveTopology;
import java.util.List;

/** Admin routes of the topology table: lookup, list, reload, load. */
public final class TopologyApi {
    private final LiveTopology topology;
    private final java.util.function.Consumer<LiveTopology.Load> loaded;

    /** {@code loaded} hears of every load that went into service (the sync group shares it). */
    public TopologyApi(LiveTopology topology, java.util.function.Consumer<LiveTopology.Load> loaded) {
        this.topology = topology;
        this.loaded = loaded;
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
                new AdminServer.Route("POST", "/topology/reload", Role.OPERATOR, r -> result(topology::reload)),
                new AdminServer.Route(
                        "POST",
                        "/topology/load",
                        Role.OPERATOR,
                        r -> {
                            TopologyLoad req = Json.MAPPER.readValue(r.body(), TopologyLoad.class);
                            if (req.files() == null || req.files().isEmpty()) {
                                throw new IllegalArgumentException("no files in the request");
                            }
                            return result(() -> load(new LiveTopology.Load(req.files(), req.region())));
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
                            return bindViews(req);
                        },
                        AdminServer.Body.UPLOAD));
    }

    /** named.conf's views as regions and records, loaded like `gslb topology load`: all or nothing. */
    private AdminServer.Response bindViews(BindViewsImport req) {
        String before = size(topology.table());
        try {
            BindViews b = BindViews.read(new java.util.LinkedHashMap<>(req.files()));
            List<String> notes = new java.util.ArrayList<>(b.notTranslated());
            java.util.Map<String, String> map = req.map() == null ? java.util.Map.of() : req.map();
            BindViews.Translation t = b.topology(map, topology.spec().dataCenters(), notes);
            java.util.Map<String, String> texts = t.texts();
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
                return AdminServer.Response.refused(new Refusal(notes, "the table in service is the previous one"));
            }
            LiveTopology.LoadReport r = load(new LiveTopology.Load(texts, null));
            return AdminServer.Response.ok(new BindViewsImported(views, notes, report(r)))
                    .changed(null, before, size(topology.table()));
        } catch (TopologyException e) {
            return AdminServer.Response.refused(new Refusal(e.problems(), "the table in service is the previous one"));
        }
    }

    private static TopologyReport report(LiveTopology.LoadReport r) {
        return new TopologyReport(
                r.loaded(), r.regions(), r.prefixes(), r.took().toMillis(), r.warnings());
    }

    private LiveTopology.LoadReport load(LiveTopology.Load l) throws TopologyException {
        LiveTopology.LoadReport r = topology.load(l.texts(), l.region());
        loaded.accept(l);
        return r;
    }

    private interface Load {
        LiveTopology.LoadReport run() throws TopologyException;
    }

    /** 200 with the report, or 422 with every problem; on 422 the table in service is unchanged. */
    private AdminServer.Response result(Load load) {
        String before = size(topology.table());
        try {
            LiveTopology.LoadReport r = load.run();
            return AdminServer.Response.ok(report(r)).changed(null, before, size(topology.table()));
        } catch (TopologyException e) {
            return AdminServer.Response.refused(new Refusal(e.problems(), "the table in service is the previous one"));
        }
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
}
