package dev.gslb.probe.schedule;

import dev.gslb.probe.proximity.LdnsEntry;

/**
 * Who hears of an LDNS in use ({@link ProbeScheduler#onAsked}): peer sync, which asks the peers to
 * measure it too. Told on the querying thread, with the entry as it stands after the touch: a
 * listener must not block and should allocate nothing unless it acts.
 */
@FunctionalInterface
public interface LdnsAsked {
    void asked(long hi, long lo, LdnsEntry entry, long nowMillis);
}
