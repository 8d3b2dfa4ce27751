package dev.gslb.api;

/** The answer to POST /peer/join: the peer now paired, connected and authenticated. */
public record Joined(String peer) {}
