package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.dns.zone.Zone;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSInput;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Header;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

/**
 * Builds the answer body for every question the cache does not hold: zone data (positive,
 * NODATA, NXDOMAIN, referrals, wildcards, CNAME chains), CHAOS, and wide-IP outcomes other than
 * addresses (failure behaviour, return-to-dns); a question for a wide IP's addresses comes back
 * {@link Pending} for {@link WideIpLookup} to decide. The query was already checked by
 * {@link QueryView}; only its question name is parsed here. The sections are assembled with
 * dnsjava and rendered once; {@link AnswerWriter} fits them to each client.
 */
final class MessageAnswerer {
    private static final Name ID_SERVER = Name.fromConstantString("id.server.");
    private static final Name HOSTNAME_BIND = Name.fromConstantString("hostname.bind.");
    private static final Name VERSION_BIND = Name.fromConstantString("version.bind.");
    private static final Name VERSION_SERVER = Name.fromConstantString("version.server.");
    private static final long ERRORS = ResponseClasses.ERRORS;

    private final InstanceIdentity identity;

    MessageAnswerer(InstanceIdentity identity) {
        this.identity = identity;
    }

    /**
     * A body, and whether the cache may keep it, in its negative part when {@code negative} (a name
     * that does not exist: such questions are without number, and must not push out the others);
     * a null body means drop the query (drop-packet method). Or, with no body, a wide IP that must
     * decide first: {@code pending}.
     */
    record Result(AnswerBody body, boolean cacheable, boolean negative, Pending pending) {
        Result(AnswerBody body, boolean cacheable) {
            this(body, cacheable, false, null);
        }

        Result(AnswerBody body, boolean cacheable, Pending pending) {
            this(body, cacheable, false, pending);
        }
    }

    /**
     * A question for addresses that ends at a wide IP: its own name ({@code first}) or the end of a
     * CNAME chain ({@code owner}, in {@code wideIpZone}). The answer so far waits in {@code m} for
     * the wide IP's decision, which {@link WideIpLookup} makes, once.
     */
    record Pending(
            Authority authority,
            Message m,
            Zone zone,
            Zone wideIpZone,
            WideIp wideIp,
            Name owner,
            boolean first,
            Name wildcard) {}

    private static final Result DROP = new Result(null, false);

    /** The answer to {@code q}, or the wide IP it waits for. */
    Result answer(Authority authority, QueryView q) {
        Name qname;
        try {
            DNSInput in = new DNSInput(ByteBuffer.wrap(q.buf, 0, q.qnameEnd));
            in.jump(QueryView.HEADER);
            qname = new Name(in);
        } catch (IOException | RuntimeException e) {
            return new Result(
                    AnswerBody.empty(false, Rcode.FORMERR, ERRORS), false); // the guard read it; cannot happen
        }
        Message m = new Message(0);
        m.getHeader().setFlag(Flags.QR);
        m.addRecord(Record.newRecord(qname, q.qtype, q.qclass), Section.QUESTION);
        if (q.qclass == DClass.CH) {
            return chaos(m, q, qname);
        }
        if (q.refusedOutright()) {
            return new Result(AnswerBody.REFUSED, false);
        }
        return internet(authority, m, qname, q);
    }

    private Result internet(Authority authority, Message m, Name qname, QueryView q) {
        Zone zone = authority.zones().find(qname);
        if (zone == null) {
            return new Result(AnswerBody.REFUSED, false);
        }
        m.getHeader().setFlag(Flags.AA);
        WideIp wideIp = authority.wideIp(qname);
        if (wideIp != null) { // a wildcard one answers as a zone's wildcard does: owned by the asked name
            return wideIp(
                    new Pending(
                            authority,
                            m,
                            zone,
                            zone,
                            wideIp,
                            qname,
                            true,
                            wideIp.name().isWild() ? wideIp.name() : null),
                    q);
        }
        if (zone.expired()) { // a secondary zone not held: as a secondary answers (the wide IPs are ours, above)
            return new Result(AnswerBody.empty(false, Rcode.SERVFAIL, ERRORS), false);
        }
        if (authority.emptyNonTerminal(qname) && !zone.delegated(qname)) { // exists: wide IPs are below it
            m.addRecord(zone.negativeSoa(), Section.AUTHORITY);
            return new Result(
                    render(
                            authority,
                            m,
                            q,
                            Rcode.NOERROR,
                            false,
                            ResponseClasses.of(m, q, Rcode.NOERROR, zone, false, null),
                            0),
                    true);
        }
        Signer signer = authority.signer(zone);
        RRset keys = signer == null || !qname.equals(zone.origin()) ? null : keySet(signer, q.qtype);
        if (keys != null) { // the keys are the signer's, not the zone file's
            addSet(m, keys, Section.ANSWER);
            return new Result(render(authority, m, q, Rcode.NOERROR, false, ResponseClasses.answer(q), 0), true);
        }
        Zone.Answer a = zone.lookup(qname, q.qtype, name -> authority.wideIp(name) != null);
        if (!a.authoritative()) {
            m.getHeader().unsetFlag(Flags.AA);
        }
        a.answer().forEach(set -> addSet(m, set, Section.ANSWER));
        a.authority().forEach(set -> addSet(m, set, Section.AUTHORITY));
        a.additional().forEach(set -> addSet(m, set, Section.ADDITIONAL));
        int rcode = a.kind() == Zone.Answer.Kind.NXDOMAIN ? Rcode.NXDOMAIN : Rcode.NOERROR;
        if (rcode == Rcode.NXDOMAIN
                && a.authoritative()
                && a.answer().isEmpty()
                && a.additional().isEmpty()
                && a.authority().size() == 1
                && a.authority().getFirst().getType() == Type.SOA
                && (signer == null || !q.dnssecOk)) {
            return new Result(authority.nxdomain(zone), true, true, null); // one body for every name
        }
        if (a.pendingTarget() != null) {
            WideIp target = authority.wideIp(a.pendingTarget());
            Zone targetZone = authority.zones().find(a.pendingTarget());
            return wideIp(
                    new Pending(authority, m, zone, targetZone, target, a.pendingTarget(), false, a.wildcard()), q);
        }
        boolean referral = !a.authoritative() && a.answer().isEmpty() && rcode == Rcode.NOERROR;
        long rateClass = ResponseClasses.of(m, q, rcode, zone, referral, a.wildcard());
        // an NXDOMAIN with more in it (a signed one's NSEC and signatures, a chain) is kept apart too
        return new Result(
                render(authority, m, q, rcode, referral, rateClass, 0),
                !a.synthesized(),
                rcode == Rcode.NXDOMAIN,
                null);
    }

    /**
     * A wide IP name holds only addresses, or an alias when a CNAME pool answers: another type is
     * answered NODATA at once unless a CNAME pool may answer it; the rest waits for the decision.
     */
    private Result wideIp(Pending p, QueryView q) {
        if (!addressQuestion(q) && !p.wideIp().answersCname()) {
            return nodata(p, q, 0);
        }
        return new Result(null, false, p);
    }

    static boolean addressQuestion(QueryView q) {
        return q.qtype == Type.A || q.qtype == Type.AAAA || q.qtype == Type.ANY;
    }

    /** NODATA at the wide IP: it holds no records of the asked type. */
    Result nodata(Pending p, QueryView q, int scope) {
        addSoa(p.m(), p.first(), p.wideIpZone().negativeSoa());
        return finish(p, q, Rcode.NOERROR, scope);
    }

    /**
     * The wide IP of {@code p} answers a CNAME to {@code target}, inside a zone served here: the
     * chain continues in the same answer as a zone's own CNAME chain does, to a static name or to
     * another wide IP (whose decision comes back {@link Pending}). A question for the CNAME itself
     * stops at it.
     */
    Result follow(Authority authority, Pending p, Name target, long ttl, QueryView q, int scope) {
        Message m = p.m();
        m.addRecord(new CNAMERecord(p.owner(), DClass.IN, ttl, target), Section.ANSWER);
        if (q.qtype == Type.CNAME) {
            return finish(p, q, Rcode.NOERROR, scope);
        }
        Zone zone = authority.zones().find(target);
        WideIp next = authority.wideIp(target);
        if (next != null) {
            return wideIp(new Pending(authority, m, p.zone(), zone, next, target, false, p.wildcard()), q);
        }
        Zone.Answer a = zone.lookup(target, q.qtype, name -> authority.wideIp(name) != null);
        a.answer().forEach(set -> addSet(m, set, Section.ANSWER));
        a.authority().forEach(set -> addSet(m, set, Section.AUTHORITY));
        a.additional().forEach(set -> addSet(m, set, Section.ADDITIONAL));
        if (a.pendingTarget() != null) {
            Zone targetZone = authority.zones().find(a.pendingTarget());
            WideIp last = authority.wideIp(a.pendingTarget());
            return wideIp(
                    new Pending(authority, m, p.zone(), targetZone, last, a.pendingTarget(), false, p.wildcard()), q);
        }
        return finish(p, q, a.kind() == Zone.Answer.Kind.NXDOMAIN ? Rcode.NXDOMAIN : Rcode.NOERROR, scope);
    }

    /** The records before a wide IP's addresses (its CNAME chain) rendered; null for the wide IP's own name. */
    AnswerBody chain(Pending p, QueryView q, int scope) {
        return p.first() ? null : finish(p, q, Rcode.NOERROR, scope).body();
    }

    /**
     * Completes {@code p} with the wide IP's decision {@code r} (for {@code type}) when it is not
     * addresses, which {@link WideIpLookup} has answered: the zone's own records (return-to-dns),
     * the failure behaviour (its fallback addresses only when none is of this family), or drop.
     */
    Result complete(Pending p, QueryView q, WideIpResolver.Result r, int type, int scope) {
        Message m = p.m();
        if (r.outcome() == Outcome.DROP) {
            return DROP;
        }
        int rcode = Rcode.NOERROR;
        if (r.outcome() == Outcome.RETURN_TO_DNS) {
            RRset own = p.wideIpZone().rrset(p.wideIp().name(), type);
            if (own == null) {
                addSoa(m, p.first(), p.wideIpZone().negativeSoa());
            } else {
                own.rrs(false).forEach(rec -> m.addRecord(rec.withName(p.owner()), Section.ANSWER));
            }
        } else {
            rcode = failure(m, p.wideIpZone(), r.failure(), p.first());
        }
        return finish(p, q, rcode, scope);
    }

    /** F5's last resort without addresses of the asked family: the configured rcode with its own TTL. */
    private static int failure(Message m, Zone zone, Failure f, boolean first) {
        Record soa = zone.soaWithTtl(f.ttl());
        switch (f.kind()) {
            case FALLBACK_IP, NODATA -> {
                addSoa(m, first, soa);
                return Rcode.NOERROR;
            }
            case NXDOMAIN -> {
                addSoa(m, true, soa);
                return Rcode.NXDOMAIN;
            }
            case REFUSED -> {
                m.getHeader().unsetFlag(Flags.AA);
                return Rcode.REFUSED;
            }
            default -> {
                m.getHeader().unsetFlag(Flags.AA);
                return Rcode.SERVFAIL;
            }
        }
    }

    private static void addSoa(Message m, boolean first, Record soa) {
        if (first || m.getSection(Section.ANSWER).isEmpty()) {
            m.addRecord(soa, Section.AUTHORITY);
        }
    }

    private Result chaos(Message m, QueryView q, Name name) {
        String text = null;
        if (name.equals(ID_SERVER) || name.equals(HOSTNAME_BIND)) {
            text = identity.name();
        } else if (name.equals(VERSION_BIND) || name.equals(VERSION_SERVER)) {
            text = "gslb";
        }
        if (text == null || (q.qtype != Type.TXT && q.qtype != Type.ANY)) {
            return new Result(AnswerBody.REFUSED, false);
        }
        m.getHeader().setFlag(Flags.AA);
        m.addRecord(new TXTRecord(name, DClass.CH, 0, text), Section.ANSWER);
        return new Result(render(null, m, q, Rcode.NOERROR, false, ResponseClasses.answer(q), 0), true);
    }

    /** Renders a wide IP's answer with its rate-limit class ({@link ResponseClasses}); never cached. */
    private static Result finish(Pending p, QueryView q, int rcode, int scope) {
        long rateClass = ResponseClasses.of(p.m(), q, rcode, p.zone(), false, p.wildcard());
        return new Result(render(p.authority(), p.m(), q, rcode, false, rateClass, scope), false);
    }

    /**
     * Renders {@code m} with {@code rcode}; for a query with DO, signed first where its zones are
     * signed here ({@link SignedAnswer}; {@code authority} null: nothing is).
     */
    private static AnswerBody render(
            Authority authority, Message m, QueryView q, int rcode, boolean referral, long rateClass, int scope) {
        Header h = m.getHeader();
        h.setRcode(rcode & 0xF);
        long refreshAt = Long.MAX_VALUE;
        if (q.dnssecOk && authority != null && authority.signatures() != Signatures.NONE) {
            refreshAt = SignedAnswer.sign(m, authority, q, referral);
            if (refreshAt == SignedAnswer.OVER_BUDGET) {
                return AnswerBody.OVER_BUDGET;
            }
        }
        return AnswerBody.render(m, q.questionEnd, referral, rateClass, scope, refreshAt);
    }

    /** The signer's DNSKEY, CDS or CDNSKEY RRset for a question of that type at the apex, else null. */
    private static RRset keySet(Signer signer, int qtype) {
        return switch (qtype) {
            case Type.DNSKEY -> signer.dnskeys();
            case Type.CDS -> signer.cds();
            case Type.CDNSKEY -> signer.cdnskey();
            default -> null;
        };
    }

    private static void addSet(Message m, RRset set, int section) {
        for (Record r : set.rrs(false)) {
            m.addRecord(r, section);
        }
    }
}
