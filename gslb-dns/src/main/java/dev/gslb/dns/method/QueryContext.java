package dev.gslb.dns.method;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * Who is asking what: the LDNS address, the EDNS client subnet if any, the record type. Mutable
 * and reused per thread so a decision allocates nothing; {@link #scope} is written by the
 * methods that used the client subnet (RFC 7871 scope prefix).
 */
public final class QueryContext {
    private static final long V4_MAPPED = 0xFFFF_0000_0000L;

    InetAddress ldns;
    long ldnsHi;
    long ldnsLo;
    boolean ldnsV4;
    /** Client subnet: address as two longs (IPv4 mapped) and source prefix; -1 when absent. */
    long ecsHi;
    long ecsLo;
    boolean ecsV4;
    int ecsPrefix = -1;
    int recordType;
    int scope;
    long nowMillis;
    Trace trace;

    public QueryContext set(InetAddress ldns, int recordType, long nowMillis) {
        this.ldns = ldns;
        this.recordType = recordType;
        this.nowMillis = nowMillis;
        this.ecsPrefix = -1;
        this.scope = 0;
        this.trace = null;
        if (ldns instanceof Inet4Address) {
            ldnsV4 = true;
            ldnsHi = 0;
            ldnsLo = V4_MAPPED | (ldns.hashCode() & 0xFFFF_FFFFL); // Inet4Address's hash is its address
        } else {
            ldnsV4 = false;
            long[] hl = split(ldns.getAddress());
            ldnsHi = hl[0];
            ldnsLo = hl[1];
        }
        return this;
    }

    /** Sets the EDNS client subnet (RFC 7871): the address masked to {@code prefix} bits. */
    public QueryContext clientSubnet(InetAddress address, int prefix) {
        ecsV4 = address instanceof Inet4Address;
        long[] hl = ecsV4 ? new long[] {0, V4_MAPPED | (address.hashCode() & 0xFFFF_FFFFL)} : split(address.getAddress());
        ecsHi = hl[0];
        ecsLo = hl[1];
        ecsPrefix = prefix;
        return this;
    }

    /** Traces the decision; an explained query is not a real one, so it raises no probe. */
    public QueryContext trace(Trace t) {
        this.trace = t;
        return this;
    }

    private static long[] split(byte[] b) {
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (b[i] & 0xFF);
            lo = (lo << 8) | (b[8 + i] & 0xFF);
        }
        return new long[] {hi, lo};
    }

    public InetAddress ldns() {
        return ldns;
    }

    public int recordType() {
        return recordType;
    }

    public boolean hasClientSubnet() {
        return ecsPrefix >= 0;
    }

    /** The RFC 7871 scope prefix the answer was decided with (0: valid for any client). */
    public int scope() {
        return scope;
    }

    public Trace trace() {
        return trace;
    }

    boolean tracing() {
        return trace != null;
    }
}
