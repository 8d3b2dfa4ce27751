package dev.gslb.api;

/** POST /config/reload: what is served now. */
public record Reloaded(int zones, int wideIps) {}
