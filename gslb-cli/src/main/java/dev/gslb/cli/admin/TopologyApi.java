package dev.gslb.cli.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.topology.LiveTopology;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Admin routes of the topology table: lookup, list, reload, load. */
public final class TopologyApi {
    /** The body of POST /topology/load: file name -> content, and an optional region for all. */
    public record LoadRequest(String region, Map<String, String> files) {}

    /** JSON shapes, shared with the CLI that prints them. */
    public record LookupResult(String ip, boolean matched, String prefix, String region, String best,
                               List<TopologyMatch.Score> scores) {}

    public record RegionSummary(String name, long ipv4, long ipv6) {}

    public record Listing(String loadedAt, int prefixes, List<RegionSummary> regions, List<TopologyRecord> records,
                          List<String> warnings) {}

    private final LiveTopology topology;

    public TopologyApi(LiveTopology topology) {
        this.topology = topology;
    }

    public List<AdminServer.Route> routes() {
        return List.of(
                new AdminServer.Route("GET", "/topology/lookup", r -> AdminServer.Response.json(200,
                        Json.write(lookup(topology.table(), r.param("ip"))))),
                new AdminServer.Route("GET", "/topology/list", r -> AdminServer.Response.json(200,
                        Json.write(listing(topology)))),
                new AdminServer.Route("POST", "/topology/reload", r -> result(topology::reload)),
                new AdminServer.Route("POST", "/topology/load", r -> {
                    LoadRequest req = Json.MAPPER.readValue(r.body(), new TypeReference<>() {});
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
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("loaded", r.loaded());
            body.put("regions", r.regions());
            body.put("prefixes", r.prefixes());
            body.put("millis", r.took().toMillis());
            body.put("warnings", r.warnings());
            return AdminServer.Response.json(200, Json.write(body));
        } catch (TopologyException e) {
            return new Refusal(e.problems(), "the table in service is the previous one").response();
        }
    }

    public static LookupResult lookup(TopologyTable table, String ip) {
        if (ip == null || ip.isBlank()) {
            throw new IllegalArgumentException("give ?ip=ADDRESS");
        }
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(ip.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + ip + "' is not an IPv4 or IPv6 address");
        }
        TopologyMatch m = table.lookup(address);
        return m == null ? new LookupResult(ip, false, null, null, null, List.of())
                : new LookupResult(ip, true, m.prefix(), m.region(), m.bestDataCenter(), m.scores());
    }

    public static Listing listing(LiveTopology topology) {
        TopologyTable t = topology.table();
        List<RegionSummary> regions = t.regions().stream()
                .map(r -> new RegionSummary(r.name(), r.ipv4Count(), r.ipv6Count()))
                .sorted((a, b) -> a.name().compareTo(b.name())).toList();
        return new Listing(String.valueOf(topology.loadedAt()), t.prefixCount(), regions, t.records(), t.warnings());
    }
}
