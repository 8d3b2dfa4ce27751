package dev.gslb.api;

/** 403 to a token whose role is too little: the role the route needs and the token's. */
public record Forbidden(String error, Role needs, Role role) {}
