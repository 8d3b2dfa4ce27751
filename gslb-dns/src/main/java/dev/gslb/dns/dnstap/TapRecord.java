package dev.gslb.dns.dnstap;

import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.site.VirtualServer;

/**
 * One logged query in {@link TapQueue}: its wire bytes and its answer's, who asked, when, and what
 * decided it, as references to the configuration's own objects (named on the writer thread, so
 * the query path builds no text). Made once per slot and refilled.
 */
final class TapRecord {
    /** The slot's own buffer: the query's bytes, then the answer's. */
    final byte[] own;
    /** Where the bytes are: {@link #own}, or an array of their own when they did not fit in it. */
    byte[] bytes;

    int queryLength;
    /** -1: no answer was sent (the query was dropped) or answers are not logged. */
    int responseLength;

    boolean tcp;
    long hi;
    long lo;
    int port;
    long millis;

    /** The wide IP decided for this query, or null (static data, an error). */
    WideIp wideIp;

    Pool pool;
    String tier;
    LoadBalancingMethod method;
    Outcome outcome;
    VirtualServer server;
    Failure.Kind failure;

    /** Where {@link TapQueue} placed it. */
    long position;

    TapRecord(int size) {
        own = new byte[size];
        bytes = own;
    }

    /** Drops what the record held (so an old configuration is not kept alive by the ring). */
    void forget() {
        bytes = own;
        wideIp = null;
        pool = null;
        method = null;
        outcome = null;
        server = null;
        failure = null;
    }
}
