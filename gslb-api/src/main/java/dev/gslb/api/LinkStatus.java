package dev.gslb.api;

/**
 * GET /links, `gslb link list`: one ISP link as this instance answers by it. Rates in bit/s, null
 * while unknown; {@code measuredBy} is the instance on the link (this one or a peer).
 *
 * @param switchOverSeconds the longest time from a failure of the link until answers change:
 *     gateway monitor interval x down threshold (or the traffic window for a limit) + answer TTL
 */
public record LinkStatus(
        String name,
        String dataCenter,
        String state,
        Long inBps,
        Long outBps,
        Long limitInBps,
        Long limitOutBps,
        Long capacityBps,
        boolean overLimit,
        String overLimitReason,
        String source,
        String lastPoll,
        String measuredBy,
        String reason,
        long switchOverSeconds) {}
