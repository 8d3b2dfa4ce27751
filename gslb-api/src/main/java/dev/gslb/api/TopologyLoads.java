package dev.gslb.api;

import java.util.List;
import java.util.Map;

/** GET /topology/loads: what was loaded at run time over the configured lists, in the order it applies. */
public record TopologyLoads(List<Load> loads) {
    /**
     * One load: its name, where it came from (the first file as given, and how many more), every
     * file, the region it named for all (or null), prefixes per region, who loaded it, on which
     * instance and when (null for a load kept from before loads had names).
     */
    public record Load(
            String name,
            String source,
            List<String> files,
            String region,
            int prefixes,
            Map<String, Integer> regions,
            String by,
            String instance,
            String at) {}
}
