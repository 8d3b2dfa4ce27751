package dev.gslb.probe.schedule;

/**
 * How the DNS front end asks for measurements. Owned here so gslb-dns needs no scheduler: the
 * local scheduler implements it. Implementations never block: the query is answered without
 * waiting for any probe.
 */
public interface ProbeRequests {
    /**
     * An LDNS (its address's two halves, IPv4 mapped: the query path's one address form) asked
     * for a wide IP at {@code nowMillis} (the query's own reading of the system clock, so the
     * query path reads it once): note it, and have it measured when nothing fresh is known.
     */
    void ldnsQueried(long hi, long lo, long nowMillis);

    ProbeRequests NONE = (hi, lo, nowMillis) -> {};
}
