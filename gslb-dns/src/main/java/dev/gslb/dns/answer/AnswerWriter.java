package dev.gslb.dns.answer;

import dev.gslb.dns.cookie.ServerCookies;
import dev.gslb.topology.Address;
import io.netty.buffer.ByteBuf;

/**
 * The one writer of answers, and so the one size rule. An answer is the header, the echoed
 * question, RRsets for as long as they fit the client's limit (512 bytes over UDP without EDNS,
 * min(client's size, {@code edns-udp-size}) with it, 65535 over TCP), then OPT. An answer or
 * authority RRset that does not fit ends the answer there with TC set (RFC 1035 4.2.1, RFC 2181
 * 9); an additional RRset that does not fit ends it without TC, unless it is a referral's glue
 * (RFC 9471). Cut points are RRset boundaries, so a compression pointer never points past the
 * end. Static answers from the cache, wide-IP decisions, errors and slips all go through here.
 * One instance per event-loop thread; writing allocates nothing.
 */
final class AnswerWriter {
    private static final int HEADER = QueryView.HEADER;

    private final int udpCap;
    private final byte[] nsid;
    /** The server cookie to send with the current answer, filled by the caller before {@link #begin}. */
    final byte[] serverCookie = new byte[ServerCookies.SERVER_COOKIE];

    private ByteBuf out;
    private QueryView q;
    private int start;
    private int limit;
    private int optLength;
    private boolean withOpt;
    private boolean withNsid;
    private boolean withCookie;
    private int rcode;
    private int ecsScope;
    private final int[] counts = new int[4];
    /** An RRset was cut: nothing more is written. */
    private boolean full;

    /** The TSIG BADKEY record to end the answer with: its length, 0 for none, and its time signed. */
    private int tsigLength;

    private long tsigTime;

    private boolean truncated;

    AnswerWriter(int udpCap, byte[] nsid) {
        this.udpCap = udpCap;
        this.nsid = nsid;
    }

    /**
     * Starts an answer to {@code q}: the header (counts set by {@link #finish}) and, when
     * {@code question}, the query's question as it was asked (0x20 case kept). {@code opt} adds
     * OPT (EDNS) at the end; {@code cookie} puts {@link #serverCookie} in it when the query sent a client cookie.
     */
    void begin(
            ByteBuf out,
            QueryView q,
            Transport transport,
            boolean authoritative,
            int rcode,
            boolean question,
            boolean opt,
            boolean cookie) {
        this.out = out;
        this.q = q;
        this.start = out.writerIndex();
        this.limit = q.limit(transport, udpCap);
        this.rcode = rcode;
        this.ecsScope = 0;
        this.withOpt = opt;
        this.withCookie = opt && cookie && q.hasClientCookie();
        this.withNsid = opt && q.nsidRequested;
        this.full = false;
        this.truncated = false;
        this.tsigLength = 0;
        counts[0] = question ? 1 : 0;
        counts[1] = 0;
        counts[2] = 0;
        counts[3] = 0;
        byte[] b = q.buf;
        out.writeBytes(b, 0, 2);
        out.writeByte(0x80 | (b[2] & 0x79) | (authoritative ? 0x04 : 0)); // QR, opcode and RD copied, AA
        out.writeByte((b[3] & 0x10) | (rcode & 0xF)); // CD copied
        out.writeZero(8);
        if (question) {
            out.writeBytes(b, HEADER, q.questionEnd - HEADER);
        }
        optLength = optLength();
        if (withNsid && out.writerIndex() - start + optLength > limit) {
            withNsid = false; // a very long instance name must not push out the answer
            optLength = optLength();
        }
    }

    /** The client-subnet scope to echo (RFC 7871 7.2.1): the prefix the answer depended on. */
    void ecsScope(int scope) {
        this.ecsScope = scope;
    }

    /** Adds a prepared body, RRset by RRset while they fit. */
    void body(AnswerBody body) {
        if (full) {
            return;
        }
        if (fits(body.sections.length)) {
            out.writeBytes(body.sections);
            counts[1] += body.counts[1];
            counts[2] += body.counts[2];
            counts[3] += body.counts[3];
            return;
        }
        int from = 0;
        int[] r = body.rrsets;
        for (int i = 0; i < r.length; i += 3) {
            int end = r[i];
            if (!rrset(body.sections, from, end - from, r[i + 1], r[i + 2] & 3, (r[i + 2] & 4) != 0)) {
                return;
            }
            from = end;
        }
    }

    /**
     * A wide IP's addresses ({@link Reply#addresses}): one RRset, owned by a pointer to the
     * question's name (C00C) or to a CNAME chain's target, else by the name the reply carries.
     */
    void addresses(Reply r) {
        int fixed = (r.owner == null ? 2 : r.owner.length) + 10;
        int bytes = signatureBytes(r, fixed);
        for (int i = 0; i < r.count; i++) {
            bytes += fixed + (Address.ipv4(r.hi[i], r.lo[i]) ? 4 : 16);
        }
        if (full || !fits(bytes)) {
            full = true;
            truncated = true;
            return;
        }
        for (int i = 0; i < r.count; i++) {
            recordStart(r, r.type);
            if (Address.ipv4(r.hi[i], r.lo[i])) {
                out.writeShort(4);
                out.writeInt((int) r.lo[i]);
            } else {
                out.writeShort(16);
                out.writeLong(r.hi[i]);
                out.writeLong(r.lo[i]);
            }
        }
        counts[1] += r.count;
        signatures(r);
    }

    /** The bytes of the reply's RRSIG records, owned as its addresses are; 0 when unsigned. */
    private static int signatureBytes(Reply r, int fixed) {
        int bytes = 0;
        if (r.signatures != null) {
            for (byte[] s : r.signatures) {
                bytes += fixed + s.length;
            }
        }
        return bytes;
    }

    /** The reply's RRSIG records, after the RRset they sign (its TTL, its owner). */
    private void signatures(Reply r) {
        if (r.signatures == null) {
            return;
        }
        for (byte[] s : r.signatures) {
            recordStart(r, QueryView.TYPE_RRSIG);
            out.writeShort(s.length);
            out.writeBytes(s);
        }
        counts[1] += r.signatures.length;
    }

    /** A CNAME pool's alias ({@link Reply#cname}): one CNAME record, owned as {@link #addresses} says. */
    void cname(Reply r) {
        int fixed = (r.owner == null ? 2 : r.owner.length) + 10;
        int bytes = fixed + r.target.length + signatureBytes(r, fixed);
        if (full || !fits(bytes)) {
            full = true;
            truncated = true;
            return;
        }
        recordStart(r, r.type);
        out.writeShort(r.target.length);
        out.writeBytes(r.target);
        counts[1]++;
        signatures(r);
    }

    /** A reply's record of {@code type} up to its RDATA: owner (a pointer, else written out), type, class IN, TTL. */
    private void recordStart(Reply r, int type) {
        if (r.owner == null) {
            out.writeShort(0xC000 | r.ownerAt);
        } else {
            out.writeBytes(r.owner);
        }
        out.writeShort(type);
        out.writeShort(1);
        out.writeInt((int) r.ttl);
    }

    /** An answer with no records and TC set: the rate limiter's slip, telling a real resolver to use TCP. */
    void truncate() {
        full = true;
        truncated = true;
    }

    /**
     * Ends the answer with an unsigned TSIG record carrying BADKEY (RFC 8945 5.2.1, 5.3.2): the
     * query's key and algorithm names, our time, fudge 300, no MAC, the query's ID, as BIND sends
     * it. An answer it does not fit (a 512-byte one with long names) is truncated instead.
     */
    void badKey(long nowSeconds) {
        int length = nameLength(q.buf, q.tsigOwner) + 10 + q.tsigAlgorithmLength + 16;
        if (full || !fits(length)) {
            full = true;
            truncated = true;
            return;
        }
        tsigLength = length; // reserved like OPT: it follows OPT, the last record of all
        tsigTime = nowSeconds;
    }

    /** Sets the counts and TC, and appends OPT and TSIG. */
    void finish() {
        int arcount = counts[3];
        if (withOpt) {
            writeOpt();
            arcount++;
        }
        if (tsigLength > 0) {
            writeBadKey();
            arcount++;
        }
        out.setShort(start + 4, counts[0]);
        out.setShort(start + 6, counts[1]);
        out.setShort(start + 8, counts[2]);
        out.setShort(start + 10, arcount);
        if (truncated) {
            out.setByte(start + 2, out.getByte(start + 2) | 0x02);
        }
        out = null;
        q = null;
    }

    private boolean rrset(byte[] src, int from, int length, int records, int section, boolean required) {
        if (!fits(length)) {
            full = true;
            truncated = required;
            return false;
        }
        out.writeBytes(src, from, length);
        counts[section] += records;
        return true;
    }

    private boolean fits(int bytes) {
        return out.writerIndex() - start + bytes + optLength + tsigLength <= limit;
    }

    private int optLength() {
        if (!withOpt) {
            return 0;
        }
        int n = 11;
        if (withNsid) {
            n += 4 + nsid.length;
        }
        if (q.ecsFamily != 0) {
            n += 8 + q.ecsAddressLength;
        }
        if (withCookie) {
            n += 4 + ServerCookies.CLIENT_COOKIE + ServerCookies.SERVER_COOKIE;
        }
        return n;
    }

    private void writeBadKey() {
        writeName(q.buf, q.tsigOwner);
        out.writeShort(QueryView.TYPE_TSIG);
        out.writeShort(255); // class ANY
        out.writeInt(0); // TTL
        out.writeShort(q.tsigAlgorithmLength + 16);
        out.writeBytes(q.buf, q.tsigAlgorithm, q.tsigAlgorithmLength);
        out.writeShort((int) (tsigTime >>> 32)); // time signed, 48 bits
        out.writeInt((int) tsigTime);
        out.writeShort(300); // fudge
        out.writeShort(0); // MAC size: unsigned
        out.writeBytes(q.buf, 0, 2); // original ID
        out.writeShort(17); // error BADKEY
        out.writeShort(0); // other length
    }

    /** The length of the name at {@code b[p]} written out whole: the query's guard checked its pointers. */
    private static int nameLength(byte[] b, int p) {
        int n = 1;
        for (int label = b[p] & 0xFF; label != 0; label = b[p] & 0xFF) {
            if ((label & 0xC0) == 0xC0) {
                p = ((label & 0x3F) << 8) | (b[p + 1] & 0xFF);
            } else {
                n += label + 1;
                p += label + 1;
            }
        }
        return n;
    }

    /** Writes the name at {@code b[p]} without compression, following the pointers the guard checked. */
    private void writeName(byte[] b, int p) {
        for (int label = b[p] & 0xFF; label != 0; label = b[p] & 0xFF) {
            if ((label & 0xC0) == 0xC0) {
                p = ((label & 0x3F) << 8) | (b[p + 1] & 0xFF);
            } else {
                out.writeBytes(b, p, label + 1);
                p += label + 1;
            }
        }
        out.writeByte(0);
    }

    private void writeOpt() {
        out.writeByte(0); // root owner
        out.writeShort(QueryView.TYPE_OPT);
        out.writeShort(udpCap);
        out.writeByte(rcode >>> 4); // extended rcode (BADVERS, BADCOOKIE)
        out.writeByte(0); // version
        out.writeByte((q.dnssecOk ? 0x80 : 0) | (q.compactOk ? 0x40 : 0)); // DO (RFC 3225) and CO (RFC 9824) copied
        out.writeByte(0);
        out.writeShort(optLength - 11);
        if (withNsid) {
            out.writeShort(QueryView.OPTION_NSID);
            out.writeShort(nsid.length);
            out.writeBytes(nsid);
        }
        if (q.ecsFamily != 0) { // RFC 7871 7.2.1: family, source prefix and address echoed, scope ours
            out.writeShort(QueryView.OPTION_ECS);
            out.writeShort(4 + q.ecsAddressLength);
            out.writeShort(q.ecsFamily);
            out.writeByte(q.ecsSourcePrefix);
            out.writeByte(ecsScope);
            out.writeBytes(q.buf, q.ecsAddress, q.ecsAddressLength);
        }
        if (withCookie) {
            out.writeShort(QueryView.OPTION_COOKIE);
            out.writeShort(ServerCookies.CLIENT_COOKIE + ServerCookies.SERVER_COOKIE);
            out.writeBytes(q.buf, q.cookie, ServerCookies.CLIENT_COOKIE);
            out.writeBytes(serverCookie);
        }
    }
}
