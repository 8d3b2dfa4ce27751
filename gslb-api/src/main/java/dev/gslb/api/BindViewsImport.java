package dev.gslb.api;

import java.util.Map;

/**
 * POST /topology/import/bind-views: named.conf first, then each file it includes (name ->
 * content), and which data center each view stands for.
 */
public record BindViewsImport(Map<String, String> files, Map<String, String> map) {}
