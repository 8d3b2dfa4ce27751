package dev.gslb.api;

/**
 * POST /persist/clear, `gslb persist clear`: how many entries were removed here (and sent to the
 * peers as removed), of which wide IP (null: all) and network (null: all).
 */
public record PersistenceCleared(int cleared, String wideIp, String network) {}
