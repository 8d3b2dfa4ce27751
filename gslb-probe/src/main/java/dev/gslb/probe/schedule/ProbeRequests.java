package dev.gslb.probe.schedule;

import dev.gslb.topology.Cidr;
import java.net.InetAddress;

/**
 * How the DNS front end asks for measurements. Owned here so gslb-dns needs no scheduler: the
 * local scheduler implements it, and peer sync (later) decorates it to ask peers too.
 * Implementations never block: the query is answered without waiting for any probe.
 */
public interface ProbeRequests {
    /**
     * An LDNS ({@code hi:lo}, the 128-bit form, IPv4 mapped) asked for a wide IP at {@code nowMillis} (the query's own reading of the system
     * clock, so the query path reads it once): note it, and have it measured when nothing fresh is
     * known.
     */
    void ldnsQueried(long hi, long lo, long nowMillis);

    /** {@link #ldnsQueried(long, long, long)} for an {@link InetAddress} (tools and tests; the query path has the halves). */
    default void ldnsQueried(InetAddress ldns, long nowMillis) {
        ldnsQueried(Cidr.hiOf(ldns), Cidr.loOf(ldns), nowMillis);
    }

    ProbeRequests NONE = (hi, lo, nowMillis) -> {};
}
