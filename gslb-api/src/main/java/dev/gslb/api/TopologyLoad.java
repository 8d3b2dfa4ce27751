package dev.gslb.api;

import java.util.Map;

/** POST /topology/load: file name -> content, and an optional region for all. */
public record TopologyLoad(String region, Map<String, String> files) {}
