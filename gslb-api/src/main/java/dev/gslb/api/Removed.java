package dev.gslb.api;

/** POST /ldns/delete and /peer/remove: whether {@code what} was there and is gone. */
public record Removed(boolean removed, String what) {}
