package dev.gslb.probe.schedule;

import java.net.InetAddress;

/**
 * How the DNS front end asks for measurements. Owned here so gslb-dns needs no scheduler: the
 * local scheduler implements it, and peer sync (later) decorates it to ask peers too.
 * Implementations never block: the query is answered without waiting for any probe.
 */
public interface ProbeRequests {
    /**
     * An LDNS asked for a wide IP at {@code nowMillis} (the query's own reading of the system
     * clock, so the query path reads it once): note it, and have it measured when nothing fresh is
     * known.
     */
    void ldnsQueried(InetAddress ldns, long nowMillis);

    ProbeRequests NONE = (ldns, nowMillis) -> {};
}
