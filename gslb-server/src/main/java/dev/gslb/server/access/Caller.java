package dev.gslb.server.access;

import dev.gslb.api.Role;

/** Who an admin request comes from: the name of the token it showed, and that token's role. */
public record Caller(String name, Role role) {
    /** Every caller where no token is asked (admin.token-file: none, on loopback only): as today, all may. */
    public static final Caller UNCHECKED = new Caller("anonymous", Role.ADMIN);
}
