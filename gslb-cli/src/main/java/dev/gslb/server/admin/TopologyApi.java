package dev.gslb.server.admin;

import dev.gslb.api.Json;
import dev.gslb.api.Refusal;
import dev.gslb.api.TopologyListing;
import dev.gslb.api.TopologyLoad;
import dev.gslb.api.TopologyLookup;
import dev.gslb.api.TopologyReport;
import dev.gslb.topology.Address;
import dev.gslb.topology.LiveTopology;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import java.util.List;

/** Admin routes of the topology table: lookup, list, reload, load. */
public final class TopologyApi {
    private final LiveTopology topology;

    public TopologyApi(LiveTopology topology) {
        this.topology = topology;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route(
                        "GET",
                        "/topology/lookup",
                        r -> AdminServer.Response.ok(lookup(topology.table(), r.param("ip")))),
                new AdminServer.Route("GET", "/topology/list", r -> AdminServer.Response.ok(listing(topology))),
                new AdminServer.Route("POST", "/topology/reload", r -> result(topology::reload)),
                new AdminServer.Route("POST", "/topology/load", r -> {
                    TopologyLoad req = Json.MAPPER.readValue(r.body(), TopologyLoad.class);
                    if (req.files() == null || req.files().isEmpty()) {
                        throw new IllegalArgumentException("no files in the request");
                    }
                    return result(() -> topology.load(req.files(), req.region()));
                }));
    }

    private interface Load {
        LiveTopology.LoadReport run() throws TopologyException;
    }

    /** 200 with the report, or 422 with every problem; on 422 the table in service is unchanged. */
    private static AdminServer.Response result(Load load) {
        try {
            LiveTopology.LoadReport r = load.run();
            return AdminServer.Response.ok(new TopologyReport(
                    r.loaded(), r.regions(), r.prefixes(), r.took().toMillis(), r.warnings()));
        } catch (TopologyException e) {
            return AdminServer.Response.refused(new Refusal(e.problems(), "the table in service is the previous one"));
        }
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
