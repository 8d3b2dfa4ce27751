package dev.gslb.dns.answer;

import dev.gslb.dns.wideip.WideIp;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.util.IdentityHashMap;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * What one query is answered with: the one result of {@link Responder}'s lookup stage (a cached or
 * built body, or a wide IP's addresses), with the header the guard and the cookie stage set;
 * rate-limited, then rendered by {@link AnswerWriter}. Reused per thread: filling it allocates nothing.
 */
final class Reply {
    /** What the answer holds besides the header and question. */
    enum Kind {
        /** No records (an error, a cookie-only answer, TSIG BADKEY). */
        EMPTY,
        /** {@link #body}. */
        BODY,
        /** A wide IP's addresses: {@link #body} (a CNAME chain to the wide IP) first when not null. */
        ADDRESSES,
        /** A CNAME pool's alias: {@link #body} (a CNAME chain to the wide IP) first when not null, then {@link #target}. */
        CNAME
    }

    Kind kind;
    int rcode;
    boolean authoritative;
    boolean question;
    boolean opt;
    /** Our server cookie goes in the answer (the query sent a client cookie; cookies are on). */
    boolean cookie;

    boolean validCookie;
    /** The query was signed under a key we do not have: the answer ends with TSIG BADKEY. */
    boolean badKey;

    long rateClass;
    int ecsScope;
    AnswerBody body;
    /** The wide IP this query's decision was made for (its result is the worker's), or null: for dnstap. */
    WideIp decided;

    /**
     * The addresses' type (A or AAAA), TTL and owner: a name earlier in the answer (where it
     * starts: the question's, or a CNAME chain's target) or, when none can be pointed at, the
     * name's wire form.
     */
    int type;

    long ttl;
    int ownerAt;
    byte[] owner;
    /** A CNAME pool's chosen name, as wire bytes made when the pool was built. */
    byte[] target;
    /** The RRSIG data of the addresses or the alias (a signed zone, a query with DO), else null. */
    byte[][] signatures;
    /** The answer that led to the wide IP whose addresses or alias this is (a CNAME chain), or null. */
    MessageAnswerer.Pending chain;

    /** The addresses, each as two longs (the 128-bit form, IPv4 mapped). */
    int count;

    long[] hi = new long[16];
    long[] lo = new long[16];

    void clear() {
        kind = Kind.EMPTY;
        rcode = Rcode.NOERROR;
        authoritative = false;
        question = false;
        opt = false;
        cookie = false;
        validCookie = false;
        badKey = false;
        ecsScope = 0;
        body = null;
        owner = null;
        target = null;
        signatures = null;
        chain = null;
        count = 0;
        decided = null;
    }

    /** An error answer: no records, no cookie; all errors are one rate-limit class. */
    void error(int code, boolean withQuestion, boolean withOpt) {
        rcode = code;
        question = withQuestion;
        opt = withOpt;
        rateClass = ResponseClasses.ERRORS;
    }

    /** A prepared body: cached, or built for this query. */
    void body(AnswerBody b) {
        kind = Kind.BODY;
        body = b;
        authoritative = b.authoritative;
        rcode = b.rcode;
        ecsScope = b.ecsScope;
        rateClass = b.rateClass;
    }

    /**
     * Starts a wide IP's NOERROR answer of addresses of {@code recordType}, after {@code chain}
     * (null, or the CNAME records that led to the wide IP's name), owned by the name at
     * {@code nameAt} in the answer, else by {@code ownerWire}.
     */
    void addresses(int recordType, long addressTtl, AnswerBody chain, int nameAt, byte[] ownerWire) {
        start(Kind.ADDRESSES, addressTtl, chain, nameAt, ownerWire);
        type = recordType;
    }

    /**
     * Starts a CNAME pool's answer: one CNAME record to {@code targetWire} (a name outside the
     * zones served here), after {@code chain} and owned as {@link #addresses} says.
     */
    void cname(long cnameTtl, AnswerBody chain, int nameAt, byte[] ownerWire, byte[] targetWire) {
        start(Kind.CNAME, cnameTtl, chain, nameAt, ownerWire);
        type = Type.CNAME;
        target = targetWire;
    }

    private void start(Kind k, long recordTtl, AnswerBody chain, int nameAt, byte[] ownerWire) {
        kind = k;
        rcode = Rcode.NOERROR;
        authoritative = chain == null || chain.authoritative;
        ttl = recordTtl;
        body = chain;
        ownerAt = nameAt;
        owner = ownerWire;
        count = 0;
    }

    /** Adds one address in its 128-bit form (a virtual server's, computed when it was built). */
    void add(long addressHi, long addressLo) {
        if (count == hi.length) {
            hi = java.util.Arrays.copyOf(hi, count * 2);
            lo = java.util.Arrays.copyOf(lo, count * 2);
        }
        hi[count] = addressHi;
        lo[count] = addressLo;
        count++;
    }

    /**
     * The 128-bit form of configured IPv6 fallback addresses, by identity (getAddress copies every
     * time; IPv4 needs no copy). Small: a reload brings new objects, so it is cleared past a bound.
     */
    private final IdentityHashMap<InetAddress, long[]> fallbackV6 = new IdentityHashMap<>();

    /** Adds one fallback address (a pool's or the failure's), converted here without allocating. */
    void add(InetAddress a) {
        if (a instanceof java.net.Inet4Address) {
            add(0, Cidr.loOf(a)); // from the hash code: no copy
            return;
        }
        if (fallbackV6.size() > 4096) {
            fallbackV6.clear();
        }
        long[] v6 = fallbackV6.computeIfAbsent(a, x -> new long[] {Cidr.hiOf(x), Cidr.loOf(x)});
        add(v6[0], v6[1]);
    }
}
