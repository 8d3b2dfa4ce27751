package dev.gslb.api;

/**
 * A request to change one target's runtime state (POST /runtime/{disable,drain,enable}).
 *
 * @param forSeconds the state ends by itself after this long (disable, drain); null or 0 for never
 * @param force      disable or drain even the last enabled member of a pool
 */
public record RuntimeChange(String kind, String name, String reason, Long forSeconds, Boolean force) {}
