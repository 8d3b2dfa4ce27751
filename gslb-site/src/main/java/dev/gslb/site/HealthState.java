package dev.gslb.site;

/** A virtual server's availability. Every server starts UNKNOWN: nothing is up before a check says so. */
public enum HealthState {
    UNKNOWN,
    UP,
    DOWN
}
