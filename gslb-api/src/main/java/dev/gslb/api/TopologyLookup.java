package dev.gslb.api;

import dev.gslb.topology.TopologyMatch;
import java.util.List;

/** GET /topology/lookup: the region and data-center scores of an address. */
public record TopologyLookup(
        String ip, boolean matched, String prefix, String region, String best, List<TopologyMatch.Score> scores) {}
