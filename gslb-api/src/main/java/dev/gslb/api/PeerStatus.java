package dev.gslb.api;

import java.util.List;

/**
 * What `gslb peer list` shows for one peer (GET /peer/list, a list of these). {@code lagMillis}:
 * how late its last heartbeat arrived by its clock (0 when its clock is ahead);
 * {@code clockAheadMillis}: how far its clock is ahead of ours by that heartbeat (negative: behind),
 * transit included.
 */
public record PeerStatus(
        String name,
        String dataCenter,
        List<String> addresses,
        String inUse,
        String state,
        String lastHeartbeat,
        long itemsSent,
        long itemsReceived,
        long dropped,
        int queued,
        Long lagMillis,
        Long clockAheadMillis,
        String fingerprint) {}
