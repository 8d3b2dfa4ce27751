package dev.gslb.api;

import java.util.Map;

/**
 * POST /topology/import/bind-views: named.conf first, then each file it includes (name ->
 * content), which data center each view stands for, and the name of the load it makes (null:
 * {@code bind-views}).
 */
public record BindViewsImport(Map<String, String> files, Map<String, String> map, String name) {}
