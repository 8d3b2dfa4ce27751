package dev.gslb.api;

import java.util.List;

/**
 * The answer to a BIND views import: each view as a region, and everything that was not
 * translated, with its file and line.
 */
public record BindViewsImported(List<View> views, List<String> notTranslated, TopologyReport topology) {
    /** {@code dataCenter} null: the region was loaded without a record. */
    public record View(String name, String region, int prefixes, String dataCenter) {}
}
