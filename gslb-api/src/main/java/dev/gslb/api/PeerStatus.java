package dev.gslb.api;

import java.util.List;

/** What `gslb peer list` shows for one peer (GET /peer/list, a list of these). */
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
        String fingerprint) {}
