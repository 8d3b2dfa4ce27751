package dev.gslb.api;

/** POST /config/reload: what is served now, and which shared configuration generation that is. */
public record Reloaded(int zones, int wideIps, long generation, String origin, String digest) {}
