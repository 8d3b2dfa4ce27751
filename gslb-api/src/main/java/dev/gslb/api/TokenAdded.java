package dev.gslb.api;

/** POST /token/add: the new token, shown this once (the server keeps only its hash). */
public record TokenAdded(String name, Role role, String token, String created) {}
