package dev.gslb.api;

import dev.gslb.topology.TopologyChange;
import java.util.List;
import java.util.Map;

/**
 * A topology load, import, unload, revert or reload: the load's name (null for a reload or a
 * revert), whether it was a dry run (nothing changed: the totals are of the table it would serve),
 * prefixes per region loaded, totals, warnings, and what it changes against the table that was in
 * service.
 */
public record TopologyReport(
        String name,
        boolean dryRun,
        Map<String, Integer> loaded,
        int regions,
        int prefixes,
        long millis,
        List<String> warnings,
        TopologyChange change) {}
