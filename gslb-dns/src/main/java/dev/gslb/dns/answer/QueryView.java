package dev.gslb.dns.answer;

/**
 * A no-allocation reading of the common query shape: one question, no answer or authority
 * records, at most one OPT record, nothing trailing. Anything else is left to the full parser,
 * which gives FORMERR, NOTIMP and the rest. One instance per event-loop thread, reused.
 */
final class QueryView {
    static final int HEADER = 12;
    static final int TYPE_OPT = 41;

    byte[] buf;
    int length;
    int qnameEnd;
    int qtype;
    int qclass;
    /** Offset just after the question section. */
    int questionEnd;
    boolean hasOpt;
    int udpPayload;
    int ednsVersion;
    boolean dnssecOk;
    int optionsLength;

    /** True when the packet is a well-formed query of the simple shape, ready for the fast path. */
    boolean read(byte[] b, int len) {
        buf = b;
        length = len;
        if (len < HEADER + 5) {
            return false;
        }
        int flags = u16(2);
        boolean qr = (flags & 0x8000) != 0;
        int opcode = (flags >> 11) & 0xF;
        if (qr || opcode != 0 || (flags & 0x000F) != 0 || u16(4) != 1 || u16(6) != 0 || u16(8) != 0) {
            return false;
        }
        int arcount = u16(10);
        if (arcount > 1) {
            return false;
        }
        int p = HEADER;
        int nameLength = 1;
        for (; ; ) {
            if (p >= len) {
                return false;
            }
            int label = b[p] & 0xFF;
            if (label == 0) {
                p++;
                break;
            }
            if (label > 63) {
                return false; // compression or extended label types are not expected in a question
            }
            nameLength += label + 1;
            if (nameLength > 255) {
                return false;
            }
            p += label + 1;
        }
        qnameEnd = p;
        if (p + 4 > len) {
            return false;
        }
        qtype = u16(p);
        qclass = u16(p + 2);
        p += 4;
        questionEnd = p;
        hasOpt = false;
        optionsLength = 0;
        if (arcount == 1) {
            // OPT: root owner (1), type (2), class = payload (2), ttl = ext-rcode|version|flags (4), rdlen (2)
            if (p + 11 > len || b[p] != 0 || u16(p + 1) != TYPE_OPT) {
                return false;
            }
            hasOpt = true;
            udpPayload = u16(p + 3);
            ednsVersion = b[p + 6] & 0xFF;
            dnssecOk = (b[p + 7] & 0x80) != 0;
            optionsLength = u16(p + 9);
            p += 11 + optionsLength;
        }
        return p == len;
    }

    int id() {
        return u16(0);
    }

    int u16(int at) {
        return ((buf[at] & 0xFF) << 8) | (buf[at + 1] & 0xFF);
    }

    /** The most a UDP answer to this query may be: 512 without EDNS, else the client's size capped. */
    int udpLimit(int serverCap) {
        return hasOpt ? Math.max(512, Math.min(udpPayload, serverCap)) : 512;
    }
}
