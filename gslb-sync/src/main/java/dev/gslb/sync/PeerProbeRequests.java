package dev.gslb.sync;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.schedule.LdnsAsked;
import dev.gslb.topology.Address;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Listens to the local scheduler's "LDNS asked" events: an LDNS this side has just met, that
 * passed the scheduler's checks (not excluded, admitted to the table, within its network's rate)
 * and that a peer's data center has no fresh path to, is also sent to the peers to measure (at
 * most once per probe TTL, at most {@value #MAX_ASKED} LDNS remembered at once). Told on the
 * querying thread: allocates nothing when nothing is sent.
 */
final class PeerProbeRequests implements LdnsAsked {
    private static final int MAX_ASKED = 100_000;

    private final SyncSettings settings;
    private final long reprobeAfterMillis;
    private final Supplier<List<PeerLink>> links;
    private final Map<Address, Long> asked = new ConcurrentHashMap<>();

    PeerProbeRequests(SyncSettings settings, long reprobeAfterMillis, Supplier<List<PeerLink>> links) {
        this.settings = settings;
        this.reprobeAfterMillis = reprobeAfterMillis;
        this.links = links;
    }

    @Override
    public void asked(long hi, long lo, LdnsEntry e, long now) {
        List<PeerLink> ls = links.get();
        Address key = null;
        for (int i = 0; i < ls.size(); i++) { // per query: by index, no iterator, no Path built
            PeerLink l = ls.get(i);
            int at = e.pathIndex(l.peer().dataCenter());
            if (at < 0 || now - e.measuredAt(at) > reprobeAfterMillis) {
                if (key == null) {
                    key = new Address(hi, lo);
                    if (asked.size() >= MAX_ASKED || asked.putIfAbsent(key, now) != null) {
                        return; // asked within the probe TTL already, or too much asked at once
                    }
                }
                l.offer(new Item.ProbeItem(key, now, settings.probeTtl().toMillis()));
            }
        }
    }

    /** Forgets what was asked longer than a probe TTL ago. */
    void expire(long now) {
        asked.entrySet().removeIf(e -> e.getValue() + settings.probeTtl().toMillis() < now);
    }
}
