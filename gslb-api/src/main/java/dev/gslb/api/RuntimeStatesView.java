package dev.gslb.api;

import java.util.List;

/**
 * The runtime states of one generation (GET /runtime; also what the state folder's
 * {@code runtime-states.json} and a peer's offer hold).
 *
 * @param generation one more than the states it replaced
 * @param origin     the instance where that change was made
 */
public record RuntimeStatesView(long generation, String origin, List<Entry> states) {
    public RuntimeStatesView {
        states = states == null ? List.of() : List.copyOf(states);
    }

    /**
     * One target's state.
     *
     * @param kind  datacenter, link, vs, pool, member (POOL/SERVER) or wideip
     * @param state disabled or drained (an enabled target is not listed)
     * @param by    the admin token's name, or the peer it came from
     * @param at    when, ISO-8601
     * @param until when it ends by itself, ISO-8601, or null
     */
    public record Entry(String kind, String name, String state, String by, String at, String reason, String until) {}
}
