package dev.gslb.api;

import java.util.Map;

/**
 * POST /topology/load: file name -> content, an optional region for all, and the load's name
 * (null: from the first file's name; a load of a name in service replaces that load).
 */
public record TopologyLoad(String region, Map<String, String> files, String name) {}
