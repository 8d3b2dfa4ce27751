package dev.gslb.api;

/** POST /token/add: a new token's name and role. */
public record TokenRequest(String name, Role role) {}
