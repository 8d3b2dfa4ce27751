package dev.gslb.api;

/** GET /health: the instance is up, what it serves. */
public record ServiceHealth(String status, String instance, String dataCenter, int zones, int wideIps) {}
