package dev.gslb.dns.method;

import dev.gslb.topology.Address;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * Who is asking what: the LDNS address, the EDNS client subnet if any, the record type. Mutable
 * and reused per thread so a decision allocates nothing; {@link #scope} is written by the
 * methods that used the client subnet (RFC 7871 scope prefix).
 */
public final class QueryContext {
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
    String pool;
    long nowMillis;
    Trace trace;
    /**
     * The path method's scratch: candidate i's path index in the LDNS entry it decides on, found
     * once per candidate and read again by {@code settle} (no second search by name).
     */
    int[] pathAt = new int[16];

    /** Starts a query from the LDNS {@code hi:lo} (the 128-bit form, IPv4 mapped). */
    public QueryContext set(long hi, long lo, int recordType, long nowMillis) {
        this.recordType = recordType;
        this.nowMillis = nowMillis;
        this.ecsPrefix = -1;
        this.scope = 0;
        this.pool = null;
        this.trace = null;
        ldnsV4 = Address.ipv4(hi, lo);
        ldnsHi = hi;
        ldnsLo = lo;
        return this;
    }

    /** {@link #set(long, long, int, long)} from an {@link Address} (tools and tests; the query path has the halves). */
    public QueryContext set(Address ldns, int recordType, long nowMillis) {
        return set(ldns.hi(), ldns.lo(), recordType, nowMillis);
    }

    /** Sets the EDNS client subnet (RFC 7871): its address (no bits past the prefix) and source prefix. */
    public QueryContext clientSubnet(InetAddress address, int prefix) {
        ecsV4 = address instanceof Inet4Address;
        ecsHi = Cidr.hiOf(address);
        ecsLo = Cidr.loOf(address);
        ecsPrefix = prefix;
        return this;
    }

    /** The same from the option's wire bytes (a shortened address, RFC 7871 6), without an InetAddress. */
    public QueryContext clientSubnet(byte[] b, int off, int len, boolean ipv4, int prefix) {
        ecsV4 = ipv4;
        ecsHi = Cidr.hiOf(b, off, len, ipv4);
        ecsLo = Cidr.loOf(b, off, len, ipv4);
        ecsPrefix = prefix;
        return this;
    }

    // The address the network-placing methods (topology, static persistence) use: the client
    // subnet when the query carried one, else the LDNS.

    long placeHi() {
        return hasClientSubnet() ? ecsHi : ldnsHi;
    }

    long placeLo() {
        return hasClientSubnet() ? ecsLo : ldnsLo;
    }

    boolean placeV4() {
        return hasClientSubnet() ? ecsV4 : ldnsV4;
    }

    /**
     * The client network the query is placed in (client subnet, else LDNS) cut to {@code prefix}
     * bits of its family (and to the client subnet's own length when shorter), high half.
     */
    public long networkHi(int prefixV4, int prefixV6) {
        return placeHi() & mask(prefixV4, prefixV6, true);
    }

    public long networkLo(int prefixV4, int prefixV6) {
        return placeLo() & mask(prefixV4, prefixV6, false);
    }

    /** The pool being decided (topology records may target a pool). */
    public void pool(String name) {
        this.pool = name;
    }

    public String pool() {
        return pool;
    }

    /** The LDNS (not the client subnet) in the 128-bit form: what the statistics count. */
    public long ldnsHi() {
        return ldnsHi;
    }

    public long ldnsLo() {
        return ldnsLo;
    }

    public boolean networkV4() {
        return placeV4();
    }

    /**
     * Where the client is in {@code table} (its subnet if given, else the LDNS). The answer then
     * depends on the match: the client subnet's scope covers the matched prefix, or the client's
     * own prefix when nothing matched (or only a negated record).
     */
    public TopologyMatch placeIn(TopologyTable table) {
        TopologyMatch m = table.lookup(placeHi(), placeLo());
        if (hasClientSubnet()) {
            scope = Math.max(scope, m == null || m.prefixLength() < 0 ? ecsPrefix : m.prefixLength());
        }
        return m;
    }

    /** A persisted answer for the network: the client subnet's scope covers the prefix it was kept by. */
    public void scopeAtLeast(int prefixV4, int prefixV6) {
        if (hasClientSubnet()) {
            scope = Math.max(scope, Math.min(placeV4() ? prefixV4 : prefixV6, ecsPrefix));
        }
    }

    private long mask(int prefixV4, int prefixV6, boolean high) {
        int prefix = placeV4() ? prefixV4 : prefixV6;
        if (hasClientSubnet()) {
            prefix = Math.min(prefix, ecsPrefix);
        }
        int bits = placeV4() ? prefix + 96 : prefix; // IPv4 lives in the low 32 bits of the 128-bit form
        if (high) {
            return bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
        }
        return bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
    }

    /** Traces the decision; an explained query is not a real one, so it raises no probe. */
    public QueryContext trace(Trace t) {
        this.trace = t;
        return this;
    }

    /** The LDNS as text (log lines; builds it, so not per query). */
    public String ldnsText() {
        return new Address(ldnsHi, ldnsLo).toString();
    }

    public int recordType() {
        return recordType;
    }

    /** When the query arrived (epoch milliseconds). */
    public long nowMillis() {
        return nowMillis;
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
