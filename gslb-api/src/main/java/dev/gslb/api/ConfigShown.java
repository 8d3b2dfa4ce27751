package dev.gslb.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GET /config/show: the configuration this instance runs (`gslb config show`), its defaults filled
 * in and secrets replaced by {@code <redacted>}.
 *
 * @param generation    the shared configuration's generation in service, from {@code origin}
 * @param runtimeLoads  topology lists loaded at run time (`gslb topology load`), served besides
 * @param configuration every section, as a configuration file writes it
 */
public record ConfigShown(
        String instance, long generation, String origin, String digest, int runtimeLoads, JsonNode configuration) {}
