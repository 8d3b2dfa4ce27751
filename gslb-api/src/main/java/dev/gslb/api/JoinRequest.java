package dev.gslb.api;

/** POST /peer/join: the token printed by `gslb peer pair` on the other instance. */
public record JoinRequest(String token) {}
