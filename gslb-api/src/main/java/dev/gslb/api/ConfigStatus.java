package dev.gslb.api;

import java.util.List;

/**
 * GET /config/status: the shared configuration this instance serves and what each peer serves.
 *
 * @param inSync  every paired peer serves the same content
 * @param refused a peer's configuration this instance refused, and why (null when none)
 */
public record ConfigStatus(
        String instance,
        long generation,
        String origin,
        String digest,
        boolean sync,
        boolean inSync,
        String refused,
        List<Peer> peers) {

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
