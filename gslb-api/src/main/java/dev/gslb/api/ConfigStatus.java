package dev.gslb.api;

import java.util.List;

/**
 * GET /config/status: the shared configuration this instance serves and what each peer serves.
 *
 * @param inSync  every paired peer is connected and serves the same content, and none refused
 *     this instance's
 * @param refused a peer's configuration this instance refused, and why (null when none)
 * @param runtime the runtime states' generation here and as each peer last offered it
 *     (docs/operator-guide.md "Take something out of service"), or null where the server does not
 *     keep them
 * @param keys    the DNSSEC keys here and at each peer, or null where the server does not share them
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
        Runtime runtime,
        Keys keys) {

    /** A peer's {@link Peer#state()}: connected, serving the same content. */
    public static final String IN_SYNC = "in sync";
    /** Connected, serving other content (passing a change through, or out of sync). */
    public static final String DIFFERS = "differs";
    /** Connected, and it refused this instance's configuration. */
    public static final String REFUSED = "refused ours";
    /** Connected, and it has not told its configuration yet. */
    public static final String NOT_HEARD = "not heard yet";
    /** Not connected: what it serves is unknown ("unknown since TIME" it was last heard). */
    public static final String UNKNOWN = "unknown";

    /** The same status with the runtime states' generations. */
    public ConfigStatus withRuntime(Runtime r) {
        return new ConfigStatus(instance, generation, origin, digest, sync, inSync, refused, peers, r, keys);
    }

    /** The same status with the DNSSEC keys here and at the peers. */
    public ConfigStatus withKeys(Keys k) {
        return new ConfigStatus(instance, generation, origin, digest, sync, inSync, refused, peers, runtime, k);
    }

    /**
     * The DNSSEC keys made here (not given as files; those travel with the configuration) and as
     * each peer last offered them: zone -> a digest of its keys and their timings. A peer that
     * lacks a zone here lacks its keys; one with another digest has other keys (for a moment, while
     * a roll step or a first exchange passes through).
     *
     * @param zones each zone signed with keys made here -> its digest
     * @param peers each peer -> zone -> digest, as it last offered them
     */
    public record Keys(
            java.util.Map<String, String> zones, java.util.Map<String, java.util.Map<String, String>> peers) {}

    /**
     * @param generation the runtime states' generation here (0: nothing was ever set)
     * @param origin     where that change was made
     * @param peers      each peer's generation as it last offered it
     */
    public record Runtime(long generation, String origin, java.util.Map<String, Long> peers) {}

    /**
     * @param generation        what it served when last heard; null before anything was heard of it
     * @param sameConfiguration what it served when last heard is the content served here
     * @param refusedOurs       why that peer refused this instance's configuration (null when it did not)
     * @param heard             when anything was last heard from it (null: never)
     * @param connected         this instance's connection to it is up
     * @param state             {@link #IN_SYNC}, {@link #DIFFERS}, {@link #REFUSED}, {@link #NOT_HEARD}, or
     *     "unknown since TIME" while it is not connected
     */
    public record Peer(
            String name,
            Long generation,
            String origin,
            String digest,
            Boolean sync,
            boolean sameConfiguration,
            String refusedOurs,
            String heard,
            boolean connected,
            String state) {}
}
