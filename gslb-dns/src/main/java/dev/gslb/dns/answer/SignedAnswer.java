package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRSIGRecord;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * Signs an answer built by {@link MessageAnswerer} for a query with DO: each RRset of a signed
 * zone gets its RRSIGs right after it (not a referral's NS or glue, which are the child's), a
 * referral gets the DS, or the NSEC proving there is none; a negative answer gets compact denial
 * (RFC 9824): one NSEC at the name that has no data, its next name the smallest after it, its
 * types what the name holds; a name that does not exist gets NXNAME and the answer is NOERROR
 * unless the client set CO. One signature per RRset, whatever the names around it, and the answer
 * of a name that does not exist costs one signature too; both are cached.
 */
final class SignedAnswer {
    private static final int[] SECTIONS = {Section.ANSWER, Section.AUTHORITY, Section.ADDITIONAL};

    /** {@link #sign}'s answer when the signing budget held a signature back: the answer must not go out. */
    static final long OVER_BUDGET = Long.MIN_VALUE;

    private SignedAnswer() {}

    /**
     * Adds the signatures and proofs to {@code m} (its rcode set) for {@code q}; returns when the
     * answer must be made again (the earliest refresh of a signature in it), Long.MAX_VALUE when
     * nothing in it is signed, {@link #OVER_BUDGET} when a signature it needs could not be made now.
     */
    static long sign(Message m, Authority authority, QueryView q, boolean referral) {
        long refreshAt = Long.MAX_VALUE;
        Name qname = m.getQuestion().getName();
        Denial denial = referral ? null : denial(m, authority, qname, q.qtype);
        Referral cut = referral ? referral(m, authority) : null;
        for (int section : SECTIONS) {
            List<RRset> sets = m.getSectionRRsets(section);
            if (sets.isEmpty()) {
                continue;
            }
            m.removeAllRecords(section);
            for (RRset set : sets) {
                add(m, set, section);
                Signer signer = signerOf(authority, set);
                if (signer != null) {
                    refreshAt = Math.min(refreshAt, addSignatures(m, signer, set, section));
                }
            }
        }
        if (cut != null) {
            add(m, cut.set, Section.AUTHORITY);
            refreshAt = Math.min(refreshAt, addSignatures(m, cut.signer, cut.set, Section.AUTHORITY));
        }
        if (denial != null) {
            RRset nsec = new RRset(Signer.nsec(denial.owner, denial.types, denial.ttl));
            add(m, nsec, Section.AUTHORITY);
            // a name that does not exist: one of countless, signed for this answer only (kept with it)
            Signer.Signed signed =
                    m.getRcode() == Rcode.NXDOMAIN ? denial.signer.signDenial(nsec) : denial.signer.sign(nsec);
            refreshAt = Math.min(refreshAt, addSignatures(m, signed, Section.AUTHORITY));
            if (m.getRcode() == Rcode.NXDOMAIN && !q.compactOk) {
                m.getHeader().setRcode(Rcode.NOERROR); // RFC 9824 3: NXDOMAIN only to a client that says CO
            }
        }
        return refreshAt;
    }

    private static void add(Message m, RRset set, int section) {
        for (Record r : set.rrs(false)) {
            m.addRecord(r, section);
        }
    }

    private static long addSignatures(Message m, Signer signer, RRset set, int section) {
        return addSignatures(m, signer.sign(set), section);
    }

    private static long addSignatures(Message m, Signer.Signed signed, int section) {
        if (signed == null) {
            return OVER_BUDGET;
        }
        for (RRSIGRecord sig : signed.signatures()) {
            m.addRecord(sig, section);
        }
        return signed.refreshAt();
    }

    /**
     * The signer of the zone {@code set} belongs to, or null: not a zone signed here, or data at or
     * below a zone cut (a referral's NS, glue), which the child signs, except the parent's DS.
     */
    private static Signer signerOf(Authority authority, RRset set) {
        if (set.getType() == Type.RRSIG || set.getType() == Type.OPT) {
            return null;
        }
        Zone zone = authority.zones().find(set.getName());
        if (zone == null) {
            return null;
        }
        Signer signer = authority.signer(zone);
        if (signer == null || (set.getType() != Type.DS && zone.delegated(set.getName()))) {
            return null;
        }
        return signer;
    }

    private record Denial(Signer signer, Name owner, int[] types, long ttl) {}

    private record Referral(Signer signer, RRset set) {}

    /**
     * The compact denial of a negative answer, or null when the answer is positive or not ours: at
     * the end of the CNAME chain in the answer (the query name when none), when a signed zone's SOA
     * stands in the authority section.
     */
    private static Denial denial(Message m, Authority authority, Name qname, int qtype) {
        Record soa = null;
        for (Record r : m.getSection(Section.AUTHORITY)) {
            if (r.getType() == Type.SOA) {
                soa = r;
            }
        }
        if (soa == null) {
            return null;
        }
        Name name = qname;
        for (boolean moved = true; moved; ) {
            moved = false;
            for (Record r : m.getSection(Section.ANSWER)) {
                if (r instanceof CNAMERecord c && c.getName().equals(name) && qtype != Type.CNAME) {
                    name = c.getTarget();
                    moved = true;
                    break;
                }
            }
        }
        for (Record r : m.getSection(Section.ANSWER)) {
            if (r.getName().equals(name) && (r.getType() == qtype || qtype == Type.ANY)) {
                return null; // positive after all
            }
        }
        Signer signer = authority.signerFor(name);
        if (signer == null || !signer.zone().equals(soa.getName())) {
            return null;
        }
        Zone zone = authority.zones().find(name);
        long ttl = zone.negativeSoa().getTTL();
        if (m.getRcode() == Rcode.NXDOMAIN) {
            return new Denial(signer, name, new int[] {Type.RRSIG, Type.NSEC, Signer.NXNAME}, ttl);
        }
        TreeSet<Integer> types = new TreeSet<>(zone.types(name));
        WideIp wideIp = authority.wideIp(name);
        if (wideIp != null) { // a wide IP holds addresses (whether it has any of a family now or not)
            types.add(Type.A);
            types.add(Type.AAAA);
        }
        if (name.equals(zone.origin())) {
            for (int t : signer.apexTypes()) {
                types.add(t);
            }
        }
        types.remove(qtype);
        types.remove(Type.CNAME); // a validator reads a CNAME bit as "follow it", never as NODATA
        types.add(Type.RRSIG);
        types.add(Type.NSEC);
        return new Denial(
                signer, name, types.stream().mapToInt(Integer::intValue).toArray(), ttl);
    }

    /**
     * A referral's proof: the DS RRset at the cut, or the NSEC at the cut saying there is none
     * (types NS, RRSIG, NSEC), from the parent's (our) zone when it is signed here.
     */
    private static Referral referral(Message m, Authority authority) {
        Name cut = null;
        for (Record r : m.getSection(Section.AUTHORITY)) {
            if (r.getType() == Type.NS) {
                cut = r.getName();
            }
        }
        Signer signer = cut == null ? null : authority.signerFor(cut);
        if (signer == null) {
            return null;
        }
        Zone zone = authority.zones().find(cut);
        RRset ds = zone.rrset(cut, Type.DS);
        if (ds != null) {
            return new Referral(signer, ds);
        }
        List<Integer> types = new ArrayList<>(new TreeSet<>(zone.types(cut)));
        for (int t : new int[] {Type.RRSIG, Type.NSEC}) {
            if (!types.contains(t)) {
                types.add(t);
            }
        }
        int[] bitmap = types.stream().mapToInt(Integer::intValue).toArray();
        return new Referral(
                signer, new RRset(Signer.nsec(cut, bitmap, zone.negativeSoa().getTTL())));
    }
}
