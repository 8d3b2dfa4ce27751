package dev.gslb.sync;

import java.util.List;

/**
 * The shared configuration this instance serves and what each peer serves (the admin API writes
 * it as its ConfigStatus).
 *
 * @param inSync  every paired peer serves the same content
 * @param refused a peer's configuration this instance refused, and why (null when none)
 */
public record GroupStatus(
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
