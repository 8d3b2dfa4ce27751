package dev.gslb.dns.answer;

import java.util.List;
import org.xbill.DNS.Message;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * An answer ready to be written for any query with its question: the answer, authority and
 * additional sections as wire bytes (names compressed against the question at offset 12, so they
 * stay valid whatever the question's letter case), where each RRset ends, and what the header
 * says. Made once by {@link MessageAnswerer}, kept by {@link ResponseCache}, and cut to each
 * client's size limit by {@link AnswerWriter}. Immutable.
 */
final class AnswerBody {
    final boolean authoritative;
    final int rcode;
    final byte[] sections;
    /** Per RRset, three ints: end offset in {@link #sections}, record count, section (1..3) | required << 2. */
    final int[] rrsets;
    /** Records per section (index 1..3), for writing the whole body at once when it fits. */
    final int[] counts = new int[4];
    /** The response-rate-limit class ({@link dev.gslb.dns.rrl.ResponseRateLimiter#responseClass}). */
    final long rateClass;
    /** The client-subnet scope of the answer (0 unless a wide IP's decision used the subnet). */
    final int ecsScope;
    /** When a signature in it must be made again (epoch milliseconds); Long.MAX_VALUE when unsigned. */
    final long refreshAt;

    private AnswerBody(
            boolean authoritative,
            int rcode,
            byte[] sections,
            int[] rrsets,
            long rateClass,
            int ecsScope,
            long refreshAt) {
        this.refreshAt = refreshAt;
        this.authoritative = authoritative;
        this.rcode = rcode;
        this.sections = sections;
        this.rrsets = rrsets;
        this.rateClass = rateClass;
        this.ecsScope = ecsScope;
        for (int i = 0; i < rrsets.length; i += 3) {
            counts[rrsets[i + 2] & 3] += rrsets[i + 1];
        }
    }

    /**
     * SERVFAIL in place of an answer whose signatures the signing budget held back; stale at once,
     * so no cache keeps it and the question is answered in full when asked again.
     */
    static final AnswerBody OVER_BUDGET =
            new AnswerBody(false, org.xbill.DNS.Rcode.SERVFAIL, new byte[0], new int[0], ResponseClasses.ERRORS, 0, 0);

    /** REFUSED, for a name no zone here holds, a class not served or a zone transfer asked (none is offered). */
    static final AnswerBody REFUSED = empty(false, org.xbill.DNS.Rcode.REFUSED, ResponseClasses.ERRORS);

    /** A body with no records (errors). */
    static AnswerBody empty(boolean authoritative, int rcode, long rateClass) {
        return new AnswerBody(authoritative, rcode, new byte[0], new int[0], rateClass, 0, Long.MAX_VALUE);
    }

    /**
     * Renders {@code m} (header, one question, sections; no OPT) with dnsjava and indexes its RRsets.
     * Additional RRsets are required only in a referral, where the glue is what makes it usable
     * (RFC 9471); elsewhere they may be left out without setting TC (RFC 2181 9).
     */
    static AnswerBody render(
            Message m, int questionEnd, boolean referral, long rateClass, int ecsScope, long refreshAt) {
        byte[] wire = m.toWire();
        int[] rrsets = new int
                [3
                        * (m.getHeader().getCount(1)
                                + m.getHeader().getCount(2)
                                + m.getHeader().getCount(3))];
        int n = 0;
        int p = questionEnd;
        for (int section = Section.ANSWER; section <= Section.ADDITIONAL; section++) {
            List<Record> records = m.getSection(section);
            boolean required = section != Section.ADDITIONAL || referral;
            for (int k = 0; k < records.size(); k++) {
                p = skipRecord(wire, p);
                if (k > 0 && records.get(k).sameRRset(records.get(k - 1))) {
                    rrsets[n - 3] = p - questionEnd;
                    rrsets[n - 2]++;
                } else {
                    rrsets[n] = p - questionEnd;
                    rrsets[n + 1] = 1;
                    rrsets[n + 2] = section | (required ? 4 : 0);
                    n += 3;
                }
            }
        }
        byte[] sections = java.util.Arrays.copyOfRange(wire, questionEnd, wire.length);
        return new AnswerBody(
                m.getHeader().getFlag(org.xbill.DNS.Flags.AA),
                m.getRcode(),
                sections,
                java.util.Arrays.copyOf(rrsets, n),
                rateClass,
                ecsScope,
                refreshAt);
    }

    /**
     * A negative answer whose only record is {@code soa} in the authority section, written without
     * compression: it points into no question, so one body serves every query name of the zone.
     */
    static AnswerBody negative(int rcode, Record soa, long rateClass) {
        byte[] sections = soa.toWire(Section.AUTHORITY);
        return new AnswerBody(
                true,
                rcode,
                sections,
                new int[] {sections.length, 1, Section.AUTHORITY | 4},
                rateClass,
                0,
                Long.MAX_VALUE);
    }

    /** Skips one record of our own rendering: owner (labels, maybe ending in a pointer), fixed fields, rdata. */
    private static int skipRecord(byte[] wire, int p) {
        int rdata = rdataOf(wire, p);
        return rdata + (((wire[rdata - 2] & 0xFF) << 8) | (wire[rdata - 1] & 0xFF));
    }

    /** Where the rdata of the record at {@code wire[p]} starts: past its owner and fixed fields. */
    private static int rdataOf(byte[] wire, int p) {
        for (; ; ) {
            int label = wire[p] & 0xFF;
            if (label == 0) {
                p++;
                break;
            }
            if ((label & 0xC0) == 0xC0) {
                p += 2;
                break;
            }
            p += label + 1;
        }
        return p + 10;
    }

    /**
     * Where, from the start of {@link #sections}, the target name of the answer section's last
     * record starts when that record is a CNAME (the end of a chain); -1 otherwise.
     */
    int chainTarget() {
        int end = 0;
        for (int i = 0; i < rrsets.length; i += 3) {
            if ((rrsets[i + 2] & 3) == Section.ANSWER) {
                end = rrsets[i];
            }
        }
        int last = -1;
        for (int p = 0; p < end; p = skipRecord(sections, p)) {
            last = p;
        }
        if (last < 0) {
            return -1;
        }
        int rdata = rdataOf(sections, last);
        return (((sections[rdata - 10] & 0xFF) << 8) | (sections[rdata - 9] & 0xFF)) == Type.CNAME ? rdata : -1;
    }

    /** Bytes this body holds, for the cache's budget. */
    int size() {
        return sections.length + rrsets.length * 4 + 64;
    }
}
