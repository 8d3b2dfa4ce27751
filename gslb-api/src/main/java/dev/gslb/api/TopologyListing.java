package dev.gslb.api;

import dev.gslb.topology.TopologyRecord;
import java.util.List;

/** GET /topology/list: regions with their prefix counts, the records, the warnings. */
public record TopologyListing(
        String loadedAt,
        int prefixes,
        List<RegionSummary> regions,
        List<TopologyRecord> records,
        List<String> warnings) {
    public record RegionSummary(String name, long ipv4, long ipv6) {}
}
