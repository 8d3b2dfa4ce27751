package dev.gslb.api;

import java.util.List;

/**
 * GET /config/status: the shared configuration this instance serves and what each peer serves.
 *
 * @param inSync  every paired peer serves the same content
 * @param refused a peer's configuration this instance refused, and why (null when none)
 * @param runtime the runtime states' generation here and as each peer last offered it (README
 *     "Maintenance"), or null where the server does not keep them
 */
public record ConfigStatus(
        String instance,
        long generation,
        String origin,
        String digest,
        boolean sync,
        boolean inSync,
        String refused,
        List<Peer> peers,
        Runtime runtime) {

    /** The same status with the runtime states' generations. */
    public ConfigStatus withRuntime(Runtime r) {
        return new ConfigStatus(instance, generation, origin, digest, sync, inSync, refused, peers, r);
    }

    /**
     * @param generation the runtime states' generation here (0: nothing was ever set)
     * @param origin     where that change was made
     * @param peers      each peer's generation as it last offered it
     */
    public record Runtime(long generation, String origin, java.util.Map<String, Long> peers) {}

    /**
     * @param generation  null before anything was heard of it
     * @param refusedOurs why that peer refused this instance's configuration (null when it did not)
     */
    public record Peer(
            String name,
            Long generation,
            String origin,
            String digest,
            Boolean sync,
            boolean sameConfiguration,
            String refusedOurs,
            String heard) {}
}
