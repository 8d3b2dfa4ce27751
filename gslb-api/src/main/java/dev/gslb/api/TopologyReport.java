package dev.gslb.api;

import java.util.List;
import java.util.Map;

/** A topology load or reload that went into service: prefixes per region loaded, totals, warnings. */
public record TopologyReport(
        Map<String, Integer> loaded, int regions, int prefixes, long millis, List<String> warnings) {}
