package dev.gslb.api;

/**
 * GET /token/list: one token, never its value. {@code lastUsed} is since this server started (null:
 * not used since), kept in memory only: writing it down on every request would cost a file write.
 */
public record TokenInfo(String name, Role role, String created, String lastUsed) {}
