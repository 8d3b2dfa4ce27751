package dev.gslb.dns.answer;

/**
 * The parse guard: a query read and checked on its raw bytes before anything else looks at it,
 * as NSD and Knot do. Every check is bounded: the header counts (QDCOUNT exactly 1, or 0 for a
 * cookie-only query; no answer records; at most one authority and two additional records), the
 * question name (labels and length capped, no compression: nothing precedes it to point at), the
 * records after it (names with backward-only pointers and a hop cap), at most one OPT, its
 * options, and a TSIG only as the last record, its RDATA whole. So no packet costs more than one pass over at most {@link #MAX_UDP_QUERY} bytes (64 KiB
 * over TCP) before it is answered or refused. One instance per event-loop thread, reused; reading
 * allocates nothing.
 */
final class QueryView {
    static final int HEADER = 12;
    static final int TYPE_OPT = 41;
    static final int TYPE_TSIG = 250;
    static final int TYPE_RRSIG = 46;
    static final int OPTION_NSID = 3;
    static final int OPTION_ECS = 8;
    static final int OPTION_COOKIE = 10;
    static final int MAX_UDP_QUERY = Responder.MAX_UDP_QUERY;
    /** Compression pointers followed in one name (a legitimate name needs one or two). */
    private static final int MAX_POINTER_HOPS = 8;
    /** Records after the question: OPT and TSIG in additional, an IXFR's SOA in authority. */
    private static final int MAX_ADDITIONAL = 2;

    private static final int MAX_AUTHORITY = 1;

    /** What to do with the packet. */
    enum Verdict {
        /** A well-formed query: answer it. */
        ANSWER,
        /** No question, only a COOKIE option (RFC 7873 5.4): answer with a server cookie. */
        COOKIE_ONLY,
        FORMERR,
        NOTIMP,
        BADVERS,
        /**
         * Signed with TSIG. With no keys here: NOTAUTH with a TSIG record carrying BADKEY (RFC 8945
         * 5.2.1), written without allocating; with keys, the responder checks it (TsigKeys).
         */
        BADKEY,
        /** Shorter than a header: nothing to answer to. */
        DROP_SHORT,
        /** QR set: a response, never answered (no reflection loops). */
        DROP_RESPONSE,
        /** A UDP datagram over {@link #MAX_UDP_QUERY}: dropped before any parsing. */
        DROP_OVERSIZE
    }

    byte[] buf;
    int length;
    int opcode;
    /** True when the question was read cleanly and may be echoed (QDCOUNT 1, name and type/class present). */
    boolean questionReadable;

    int qnameEnd;
    int qtype;
    int qclass;
    /** Offset just after the question section. */
    int questionEnd;
    /** Case-insensitive hash of the question name ({@link WireName#hash}). */
    long qnameHash;

    boolean hasOpt;
    int udpPayload;
    int ednsVersion;
    boolean dnssecOk;
    /** EDNS's CO flag (RFC 9824): the client takes NXDOMAIN with compact denial. */
    boolean compactOk;

    boolean nsidRequested;
    /** EDNS client subnet: family (1 IPv4, 2 IPv6), source prefix, address offset in buf; family 0 when absent. */
    int ecsFamily;

    int ecsSourcePrefix;
    int ecsAddress;
    int ecsAddressLength;
    /** COOKIE option data offset and length (8 client-only, 16..40 with a server cookie); length 0 when absent. */
    int cookie;

    int cookieLength;
    /** The TSIG record's owner name (maybe compressed) and algorithm name (never compressed) offsets; -1 when absent. */
    int tsigOwner;

    int tsigAlgorithm;
    int tsigAlgorithmLength;

    /** Reads and checks {@code b[0, len)}; the fields are valid as far as the verdict says. */
    Verdict read(byte[] b, int len, Transport transport) {
        buf = b;
        length = len;
        questionReadable = false;
        hasOpt = false;
        dnssecOk = false;
        compactOk = false;
        nsidRequested = false;
        ecsFamily = 0;
        cookieLength = 0;
        tsigOwner = -1;
        questionEnd = HEADER;
        if (len < HEADER) {
            return Verdict.DROP_SHORT;
        }
        if ((b[2] & 0x80) != 0) {
            return Verdict.DROP_RESPONSE;
        }
        if (transport == Transport.UDP && len > MAX_UDP_QUERY) {
            return Verdict.DROP_OVERSIZE;
        }
        opcode = (b[2] >> 3) & 0xF;
        int qdcount = u16(4);
        int ancount = u16(6);
        int nscount = u16(8);
        int arcount = u16(10);
        if (qdcount > 1) {
            return Verdict.FORMERR; // RFC 9619: never more than one question; nothing more is read
        }
        if (qdcount == 1 && !readQuestion()) {
            return Verdict.FORMERR;
        }
        if (opcode != 0) {
            return Verdict.NOTIMP; // the question (if it read) is echoed; nothing after it is trusted
        }
        if (ancount != 0 || nscount > MAX_AUTHORITY || arcount > MAX_ADDITIONAL) {
            return Verdict.FORMERR;
        }
        int p = questionEnd;
        int records = nscount + arcount;
        for (int i = 0; i < records; i++) {
            p = readRecord(p, i >= nscount, i == records - 1);
            if (p < 0) {
                return Verdict.FORMERR;
            }
        }
        if (p != len) {
            return Verdict.FORMERR; // trailing bytes
        }
        if (hasOpt && ednsVersion > 0) {
            return Verdict.BADVERS;
        }
        if (tsigOwner >= 0) {
            return Verdict.BADKEY; // before the question is looked at, as a server with keys checks the signature first
        }
        if (qdcount == 0) {
            return cookieLength > 0 ? Verdict.COOKIE_ONLY : Verdict.FORMERR;
        }
        if (qtype == TYPE_OPT || qtype == 250 || qtype == 249) { // OPT, TSIG, TKEY are records, not questions
            return Verdict.FORMERR;
        }
        return Verdict.ANSWER;
    }

    /** The question name (uncompressed: nothing precedes it to point at), type and class. */
    private boolean readQuestion() {
        int p = uncompressedName(HEADER, length);
        if (p < 0) {
            return false;
        }
        if (p + 4 > length) {
            return false;
        }
        qnameEnd = p;
        qnameHash = WireName.hash(buf, HEADER, p);
        qtype = u16(p);
        qclass = u16(p + 2);
        questionEnd = p + 4;
        questionReadable = true;
        return true;
    }

    /**
     * The offset after the uncompressed name at {@code p} (labels of at most 63 bytes, at most 255
     * bytes in all, before {@code end}); -1 when there is none: a pointer, an extended label type.
     */
    private int uncompressedName(int p, int end) {
        int last = Math.min(end, p + 255);
        for (; ; ) {
            if (p >= last) {
                return -1;
            }
            int label = buf[p] & 0xFF;
            if (label == 0) {
                return p + 1;
            }
            if (label > 63) {
                return -1;
            }
            p += label + 1;
        }
    }

    /** One authority or additional record at {@code p}; the offset after it, or -1 when malformed. */
    private int readRecord(int p, boolean additional, boolean last) {
        int owner = p;
        p = skipName(p);
        if (p < 0 || p + 10 > length) {
            return -1;
        }
        int type = u16(p);
        int rdlength = u16(p + 8);
        int rdata = p + 10;
        if (rdata + rdlength > length) {
            return -1;
        }
        if (type == TYPE_OPT) {
            // RFC 6891 6.1.1: one OPT, in the additional section, owned by the root.
            if (!additional || hasOpt || buf[owner] != 0) {
                return -1;
            }
            hasOpt = true;
            udpPayload = Math.max(512, u16(p + 2)); // values below 512 mean 512 (RFC 6891 6.2.5)
            ednsVersion = buf[p + 5] & 0xFF;
            dnssecOk = (buf[p + 6] & 0x80) != 0;
            compactOk = (buf[p + 6] & 0x40) != 0;
            if (!readOptions(rdata, rdata + rdlength)) {
                return -1;
            }
        } else if (type == TYPE_TSIG) {
            // RFC 8945 5.1: the last record of the additional section, else FORMERR.
            if (!additional || !last || !readTsig(rdata, rdata + rdlength)) {
                return -1;
            }
            tsigOwner = owner;
        }
        return rdata + rdlength;
    }

    /**
     * TSIG RDATA (RFC 8945 4.2): an uncompressed algorithm name, time signed (6), fudge (2), MAC
     * size and MAC, original ID (2), error (2), other length and other data, exactly filling it.
     */
    private boolean readTsig(int p, int end) {
        int algorithm = p;
        p = uncompressedName(p, end); // names in TSIG RDATA are never compressed
        if (p < 0) {
            return false;
        }
        tsigAlgorithm = algorithm;
        tsigAlgorithmLength = p - algorithm;
        if (p + 10 > end) {
            return false;
        }
        p += 10 + u16(p + 8); // time signed, fudge, MAC size; the MAC
        if (p + 6 > end) {
            return false;
        }
        return p + 6 + u16(p + 4) == end; // original ID, error, other length; the other data
    }

    /** The OPT options this server acts on (NSID, client subnet, cookie); others are skipped. */
    private boolean readOptions(int p, int end) {
        while (p < end) {
            if (p + 4 > end) {
                return false;
            }
            int code = u16(p);
            int len = u16(p + 2);
            int data = p + 4;
            if (data + len > end) {
                return false;
            }
            switch (code) {
                case OPTION_NSID -> nsidRequested = true;
                case OPTION_ECS -> {
                    if (ecsFamily != 0 || !readClientSubnet(data, len)) {
                        return false; // RFC 7871 7.1.1/7.1.2: at most one, well-formed, or FORMERR
                    }
                }
                case OPTION_COOKIE -> {
                    // RFC 7873 5.2.2: 8 (client only) or 16..40 bytes, else FORMERR.
                    if (cookieLength != 0 || len != 8 && (len < 16 || len > 40)) {
                        return false;
                    }
                    cookie = data;
                    cookieLength = len;
                }
                default -> {}
            }
            p = data + len;
        }
        return true;
    }

    /** RFC 7871: known family, source prefix within it, scope 0, exact address length, no bits past the prefix. */
    private boolean readClientSubnet(int p, int len) {
        if (len < 4) {
            return false;
        }
        int family = u16(p);
        int source = buf[p + 2] & 0xFF;
        int scope = buf[p + 3] & 0xFF;
        int max = family == 1 ? 32 : family == 2 ? 128 : -1;
        if (max < 0 || source > max || scope != 0 || len - 4 != (source + 7) / 8) {
            return false;
        }
        if (source % 8 != 0 && (buf[p + 4 + source / 8] & (0xFF >>> (source % 8))) != 0) {
            return false;
        }
        ecsFamily = family;
        ecsSourcePrefix = source;
        ecsAddress = p + 4;
        ecsAddressLength = len - 4;
        return true;
    }

    /**
     * Skips a possibly compressed name; the offset after it, or -1. A pointer must point before
     * the part of the name that holds it (so no loop is possible) and at most
     * {@link #MAX_POINTER_HOPS} are followed; labels and total length are capped as RFC 1035 says.
     */
    private int skipName(int p) {
        int after = -1;
        int floor = p;
        int total = 1;
        int hops = 0;
        for (; ; ) {
            if (p >= length) {
                return -1;
            }
            int label = buf[p] & 0xFF;
            if (label == 0) {
                return after < 0 ? p + 1 : after;
            }
            if ((label & 0xC0) == 0xC0) {
                if (p + 1 >= length || ++hops > MAX_POINTER_HOPS) {
                    return -1;
                }
                int target = ((label & 0x3F) << 8) | (buf[p + 1] & 0xFF);
                if (target >= floor) {
                    return -1;
                }
                if (after < 0) {
                    after = p + 2;
                }
                p = target;
                floor = target;
                continue;
            }
            if (label > 63) {
                return -1;
            }
            total += label + 1;
            if (total > 255) {
                return -1;
            }
            p += label + 1;
        }
    }

    int u16(int at) {
        return ((buf[at] & 0xFF) << 8) | (buf[at + 1] & 0xFF);
    }

    /**
     * Whether the question is refused whatever its name: a class other than IN (CHAOS is asked
     * before this) or a zone transfer, which is not offered here (TCP's go to the transfer path).
     */
    boolean refusedOutright() {
        return qclass != org.xbill.DNS.DClass.IN
                || qtype == org.xbill.DNS.Type.AXFR
                || qtype == org.xbill.DNS.Type.IXFR;
    }

    boolean hasClientCookie() {
        return cookieLength > 0;
    }

    /** The most an answer to this query may be: 512 over UDP without EDNS, else the client's size capped. */
    int limit(Transport transport, int serverCap) {
        if (transport == Transport.TCP) {
            return 65535;
        }
        return hasOpt ? Math.min(udpPayload, serverCap) : 512;
    }
}
