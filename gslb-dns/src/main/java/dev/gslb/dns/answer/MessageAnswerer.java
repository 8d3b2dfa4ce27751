package dev.gslb.dns.answer;

import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.dns.zone.Zone;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
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
 * Builds the answer body for every question the fast path does not answer itself: zone data
 * (positive, NODATA, NXDOMAIN, referrals, wildcards, CNAME chains), CHAOS, and wide-IP outcomes
 * other than addresses (failure behaviour, return-to-dns). The query was already checked by
 * {@link QueryView}; only its question name is parsed here. The sections are assembled with
 * dnsjava and rendered once; {@link AnswerWriter} fits them to each client.
 */
final class MessageAnswerer {
    private static final Name ID_SERVER = Name.fromConstantString("id.server.");
    private static final Name HOSTNAME_BIND = Name.fromConstantString("hostname.bind.");
    private static final Name VERSION_BIND = Name.fromConstantString("version.bind.");
    private static final Name VERSION_SERVER = Name.fromConstantString("version.server.");
    private static final long ERRORS = ResponseClasses.ERRORS;

    private final WideIpResolver resolver;
    /** Plain NXDOMAIN bodies by zone (identity: a reloaded zone is a new object). */
    private final Map<Zone, AnswerBody> nxdomainBodies = new ConcurrentHashMap<>();

    private final InstanceIdentity identity;

    MessageAnswerer(WideIpResolver resolver, InstanceIdentity identity) {
        this.resolver = resolver;
        this.identity = identity;
    }

    /** A body, and whether the cache may keep it; a null body means drop the query (drop-packet method). */
    record Result(AnswerBody body, boolean cacheable) {}

    private static final Result DROP = new Result(null, false);
    /** What {@link #addWideIp} returns instead of an rcode when the drop-packet method decided. */
    private static final int DROPPED = -1;

    /**
     * Who asks, when, and what was decided already: the LDNS, the time the query arrived, the
     * thread's decision objects, the fast path's decision.
     */
    private record Asker(
            QueryView q,
            InetAddress client,
            long nowMillis,
            WideIpResolver.Scratch scratch,
            WideIpResolver.Result decided) {}

    Result answer(
            Authority authority,
            QueryView q,
            InetAddress client,
            long nowMillis,
            WideIpResolver.Scratch scratch,
            WideIpResolver.Result decided) {
        Name qname;
        try {
            DNSInput in = new DNSInput(ByteBuffer.wrap(q.buf, 0, q.qnameEnd));
            in.jump(QueryView.HEADER);
            qname = new Name(in);
        } catch (IOException | RuntimeException e) {
            return new Result(
                    AnswerBody.empty(false, Rcode.FORMERR, ERRORS), false); // the guard read it; cannot happen
        }
        if (decided == null) { // no decision yet: clear the thread's context, so no earlier scope leaks in
            scratch.query.set(client, q.qtype, nowMillis);
        }
        Message m = new Message(0);
        m.getHeader().setFlag(Flags.QR);
        m.addRecord(Record.newRecord(qname, q.qtype, q.qclass), Section.QUESTION);
        if (q.qclass == DClass.CH) {
            return chaos(m, q, qname);
        }
        if (q.qclass != DClass.IN || q.qtype == Type.AXFR || q.qtype == Type.IXFR) {
            return new Result(AnswerBody.empty(false, Rcode.REFUSED, ERRORS), false); // zone transfers are not offered
        }
        return internet(authority, m, qname, new Asker(q, client, nowMillis, scratch, decided));
    }

    private Result internet(Authority authority, Message m, Name qname, Asker asker) {
        Zone zone = authority.zones().find(qname);
        if (zone == null) {
            return new Result(AnswerBody.empty(false, Rcode.REFUSED, ERRORS), false);
        }
        m.getHeader().setFlag(Flags.AA);
        int qtype = asker.q().qtype;
        WideIp wideIp = authority.wideIp(qname);
        if (wideIp != null) {
            int rcode = addWideIp(m, zone, wideIp, qname, qtype, true, asker);
            return rcode == DROPPED ? DROP : finish(m, asker, rcode, false, zone, false, null, scopeOf(asker));
        }
        Zone.Answer a = zone.lookup(qname, qtype, name -> authority.wideIp(name) != null);
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
                && a.authority().getFirst().getType() == Type.SOA) {
            return new Result(nxdomain(zone), true); // the same body for every name: cached per name apart
        }
        if (a.pendingTarget() != null) {
            WideIp target = authority.wideIp(a.pendingTarget());
            Zone targetZone = authority.zones().find(a.pendingTarget());
            rcode = addWideIp(m, targetZone, target, a.pendingTarget(), qtype, false, asker);
            return rcode == DROPPED ? DROP : finish(m, asker, rcode, false, zone, false, a.wildcard(), scopeOf(asker));
        }
        boolean referral = !a.authoritative() && a.answer().isEmpty() && rcode == Rcode.NOERROR;
        return finish(m, asker, rcode, !a.synthesized(), zone, referral, a.wildcard(), 0);
    }

    /**
     * Runs the wide IP's decision (or takes the one the fast path made) and adds its answer:
     * chosen members, a fallback address, the zone's own records (return-to-dns), or the wide
     * IP's failure behaviour. Returns the rcode, or {@link #DROPPED}.
     */
    private int addWideIp(Message m, Zone zone, WideIp wideIp, Name owner, int qtype, boolean first, Asker asker) {
        if (qtype != Type.A && qtype != Type.AAAA && qtype != Type.ANY) {
            addSoa(m, first, zone.negativeSoa());
            return Rcode.NOERROR; // a wide IP name holds only addresses
        }
        WideIpResolver.Result r = asker.decided();
        int type = qtype == Type.AAAA ? Type.AAAA : Type.A;
        if (r == null) {
            r = decide(wideIp, type, asker);
            if (qtype == Type.ANY && r.outcome() != Outcome.PICKED) {
                type = Type.AAAA;
                r = decide(wideIp, type, asker);
            }
        }
        if (r.outcome() == Outcome.PICKED) {
            for (int i = 0; i < r.count(); i++) {
                m.addRecord(addressRecord(owner, r.ttl(), r.answer(i).address()), Section.ANSWER);
            }
            return Rcode.NOERROR;
        }
        if (r.outcome() == Outcome.FALLBACK_IP) {
            m.addRecord(addressRecord(owner, r.ttl(), r.fallback()), Section.ANSWER);
            return Rcode.NOERROR;
        }
        if (r.outcome() == Outcome.DROP) {
            return DROPPED;
        }
        if (r.outcome() == Outcome.RETURN_TO_DNS) {
            RRset own = zone.rrset(wideIp.name(), type);
            if (own == null) {
                addSoa(m, first, zone.negativeSoa());
            } else {
                own.rrs(false).forEach(rec -> m.addRecord(rec.withName(owner), Section.ANSWER));
            }
            return Rcode.NOERROR;
        }
        return failure(m, zone, owner, type, r.failure(), first);
    }

    private WideIpResolver.Result decide(WideIp wideIp, int type, Asker asker) {
        return decide(wideIp, type, asker.q(), asker.client(), asker.nowMillis(), asker.scratch());
    }

    /**
     * Runs {@code wideIp}'s decision for {@code q} from {@code client} (its client subnet, if any,
     * too), as of {@code nowMillis}.
     */
    WideIpResolver.Result decide(
            WideIp wideIp, int type, QueryView q, InetAddress client, long nowMillis, WideIpResolver.Scratch s) {
        s.query.set(client, type, nowMillis);
        if (q.ecsFamily != 0) {
            s.query.clientSubnet(q.buf, q.ecsAddress, q.ecsAddressLength, q.ecsFamily == 1, q.ecsSourcePrefix);
        }
        return resolver.resolve(wideIp, s);
    }

    /** F5's last resort: fallback addresses, or the configured rcode with its own TTL. */
    private static int failure(Message m, Zone zone, Name owner, int type, Failure f, boolean first) {
        Record soa = zone.soaWithTtl(f.ttl());
        switch (f.kind()) {
            case FALLBACK_IP -> {
                boolean any = false;
                for (InetAddress a : f.addresses()) {
                    if ((a instanceof Inet4Address) == (type == Type.A)) {
                        m.addRecord(addressRecord(owner, f.ttl(), a), Section.ANSWER);
                        any = true;
                    }
                }
                if (!any) {
                    addSoa(m, first, soa);
                }
                return Rcode.NOERROR;
            }
            case NODATA -> {
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

    static Record addressRecord(Name owner, long ttl, InetAddress address) {
        return address instanceof Inet4Address
                ? new ARecord(owner, DClass.IN, ttl, address)
                : new AAAARecord(owner, DClass.IN, ttl, address);
    }

    private Result chaos(Message m, QueryView q, Name name) {
        String text = null;
        if (name.equals(ID_SERVER) || name.equals(HOSTNAME_BIND)) {
            text = identity.name();
        } else if (name.equals(VERSION_BIND) || name.equals(VERSION_SERVER)) {
            text = "gslb";
        }
        if (text == null || (q.qtype != Type.TXT && q.qtype != Type.ANY)) {
            return new Result(AnswerBody.empty(false, Rcode.REFUSED, ERRORS), false);
        }
        m.getHeader().setFlag(Flags.AA);
        m.addRecord(new TXTRecord(name, DClass.CH, 0, text), Section.ANSWER);
        return new Result(render(m, q, Rcode.NOERROR, false, ResponseClasses.answer(q), 0), true);
    }

    /** Renders the body with its rate-limit class ({@link ResponseClasses}). */
    private Result finish(
            Message m,
            Asker asker,
            int rcode,
            boolean cacheable,
            Zone zone,
            boolean referral,
            Name wildcard,
            int scope) {
        QueryView q = asker.q();
        long rateClass = ResponseClasses.of(m, q, rcode, zone, referral, wildcard);
        return new Result(render(m, q, rcode, referral, rateClass, scope), cacheable && rcode == Rcode.NOERROR);
    }

    /**
     * The zone's plain NXDOMAIN (its negative SOA alone): rendered once per zone, not per query
     * name, so a flood of random names costs no rendering. Bounded: the bodies of zones a reload
     * replaced are dropped when the map grows past a few thousand.
     */
    private AnswerBody nxdomain(Zone zone) {
        AnswerBody body = nxdomainBodies.get(zone);
        if (body == null) {
            if (nxdomainBodies.size() > 4096) {
                nxdomainBodies.clear();
            }
            body = AnswerBody.negative(Rcode.NXDOMAIN, zone.negativeSoa(), ResponseClasses.nxdomain(zone));
            nxdomainBodies.put(zone, body);
        }
        return body;
    }

    /** The client-subnet scope of a wide IP's decision for this query (the fast path's or ours). */
    private static int scopeOf(Asker asker) {
        return asker.q().ecsFamily != 0 ? asker.scratch().query.scope() : 0;
    }

    private static AnswerBody render(Message m, QueryView q, int rcode, boolean referral, long rateClass, int scope) {
        Header h = m.getHeader();
        h.setRcode(rcode & 0xF);
        return AnswerBody.render(m, q.questionEnd, referral, rateClass, scope);
    }

    private static void addSet(Message m, RRset set, int section) {
        for (Record r : set.rrs(false)) {
            m.addRecord(r, section);
        }
    }
}
