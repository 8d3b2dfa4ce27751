package dev.gslb.dns.answer;

import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import java.net.InetAddress;
import org.xbill.DNS.ClientSubnetOption;
import dev.gslb.dns.zone.Zone;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.Flags;
import org.xbill.DNS.GenericEDNSOption;
import org.xbill.DNS.Header;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

/**
 * Answers any query through a full dnsjava parse: the path for every shape the fast path does not
 * take (errors, EDNS options, CHAOS, CNAME chains into wide IPs, truncation). Slower, complete.
 */
final class MessageAnswerer {
    private static final Name ID_SERVER = Name.fromConstantString("id.server.");
    private static final Name HOSTNAME_BIND = Name.fromConstantString("hostname.bind.");
    private static final Name VERSION_BIND = Name.fromConstantString("version.bind.");
    private static final Name VERSION_SERVER = Name.fromConstantString("version.server.");

    private final WideIpResolver resolver;
    private final InstanceIdentity identity;
    private final int udpCap;

    MessageAnswerer(WideIpResolver resolver, InstanceIdentity identity, int udpCap) {
        this.resolver = resolver;
        this.identity = identity;
        this.udpCap = udpCap;
    }

    /** The rcode of a Result whose wire is null because a drop-packet method said so. */
    static final int DROPPED_BY_POLICY = -2;

    /** The wire answer and whether it may be cached; a null wire means drop the packet. */
    record Result(byte[] wire, int rcode, boolean cacheable) {}

    /** What one query carries besides the question: who asks, the client subnet, a decision already made. */
    private record Asker(InetAddress client, WideIpResolver.Scratch scratch, WideIpResolver.Result decided,
                         ClientSubnetOption ecs) {}

    Result answer(Authority authority, byte[] packet, int length, Transport transport, InetAddress client,
                  WideIpResolver.Scratch scratch, WideIpResolver.Result decided) {
        if (length < 12 || (packet[2] & 0x80) != 0) {
            return new Result(null, 0, false); // too short to answer, or a response: never reply
        }
        Message query;
        try {
            query = new Message(java.util.Arrays.copyOf(packet, length));
        } catch (IOException | RuntimeException e) {
            return headerOnly(packet, Rcode.FORMERR);
        }
        Header h = query.getHeader();
        Message response = new Message(h.getID());
        Header rh = response.getHeader();
        rh.setFlag(Flags.QR);
        rh.setOpcode(h.getOpcode());
        copyFlag(h, rh, Flags.RD);
        copyFlag(h, rh, Flags.CD);
        Record question = query.getQuestion();
        if (question != null && h.getCount(Section.QUESTION) == 1) {
            response.addRecord(question, Section.QUESTION);
        }
        if (h.getOpcode() != Opcode.QUERY) {
            return finish(response, query, Rcode.NOTIMP, transport, false);
        }
        // dnsjava accepts a cut-short message when TC is set, so the count alone is not enough.
        if (h.getCount(Section.QUESTION) != 1 || question == null || !validOpt(query)) {
            response.removeAllRecords(Section.QUESTION);
            return finish(response, null, Rcode.FORMERR, transport, false);
        }
        OPTRecord opt = query.getOPT();
        if (opt != null && opt.getVersion() > 0) {
            return finish(response, query, Rcode.BADVERS, transport, false);
        }
        int qtype = question.getType();
        if (qtype == Type.OPT || qtype == Type.TSIG || qtype == Type.TKEY) { // records, not questions
            return finish(response, query, Rcode.FORMERR, transport, false);
        }
        ClientSubnetOption ecs = null;
        if (opt != null) {
            List<EDNSOption> subnets = opt.getOptions(EDNSOption.Code.CLIENT_SUBNET);
            if (subnets.size() > 1 || subnets.size() == 1 && !validSubnet(subnets.getFirst())) {
                return finish(response, query, Rcode.FORMERR, transport, false);
            }
            ecs = subnets.isEmpty() ? null : (ClientSubnetOption) subnets.getFirst();
        }
        if (question.getDClass() == DClass.CH) {
            return chaos(response, query, question, transport);
        }
        if (question.getDClass() != DClass.IN || isTransfer(qtype)) {
            return finish(response, query, Rcode.REFUSED, transport, false);
        }
        return internet(authority, response, query, question.getName(), qtype, transport,
                new Asker(client, scratch, decided, ecs));
    }

    /**
     * RFC 7871 7.1.1/7.1.2: a known family, a source prefix within it, scope 0 in a query, and no
     * address bits beyond the source prefix (dnsjava already refused a wrong address length).
     */
    private static boolean validSubnet(EDNSOption o) {
        if (!(o instanceof ClientSubnetOption c)) {
            return false;
        }
        int max = c.getFamily() == 1 ? 32 : c.getFamily() == 2 ? 128 : -1;
        if (max < 0 || c.getSourcePrefixLength() > max || c.getScopePrefixLength() != 0) {
            return false;
        }
        byte[] a = c.getAddress().getAddress();
        int prefix = c.getSourcePrefixLength();
        for (int bit = prefix; bit < a.length * 8; bit++) {
            if ((a[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                return false;
            }
        }
        return true;
    }

    private Result internet(Authority authority, Message response, Message query, Name qname, int qtype,
                            Transport transport, Asker asker) {
        Zone zone = authority.zones().find(qname);
        if (zone == null) {
            return finish(response, query, Rcode.REFUSED, transport, true);
        }
        response.getHeader().setFlag(Flags.AA);
        WideIp wideIp = authority.wideIp(qname);
        if (wideIp != null) {
            int rcode = addWideIp(response, zone, wideIp, qname, qtype, true, asker);
            return rcode == DROPPED_BY_POLICY ? new Result(null, DROPPED_BY_POLICY, false)
                    : finish(response, query, rcode, transport, false, asker);
        }
        Zone.Answer a = zone.lookup(qname, qtype, name -> authority.wideIp(name) != null);
        if (!a.authoritative()) {
            response.getHeader().unsetFlag(Flags.AA);
        }
        a.answer().forEach(set -> addSet(response, set, Section.ANSWER));
        a.authority().forEach(set -> addSet(response, set, Section.AUTHORITY));
        a.additional().forEach(set -> addSet(response, set, Section.ADDITIONAL));
        int rcode = a.kind() == Zone.Answer.Kind.NXDOMAIN ? Rcode.NXDOMAIN : Rcode.NOERROR;
        boolean cacheable = !a.synthesized();
        if (a.pendingTarget() != null) {
            WideIp target = authority.wideIp(a.pendingTarget());
            Zone targetZone = authority.zones().find(a.pendingTarget());
            rcode = addWideIp(response, targetZone, target, a.pendingTarget(), qtype, false, asker);
            return rcode == DROPPED_BY_POLICY ? new Result(null, DROPPED_BY_POLICY, false)
                    : finish(response, query, rcode, transport, false, asker);
        }
        return finish(response, query, rcode, transport, cacheable);
    }

    /**
     * Runs the wide IP's decision (or takes the one the fast path made) and adds its answer:
     * chosen members, a fallback address, the zone's own records (return-to-dns), or the wide
     * IP's failure behaviour. Returns the rcode, or {@link #DROPPED_BY_POLICY}.
     */
    private int addWideIp(Message response, Zone zone, WideIp wideIp, Name owner, int qtype, boolean first, Asker asker) {
        if (qtype != Type.A && qtype != Type.AAAA && qtype != Type.ANY) {
            addSoa(response, zone, first, zone.negativeSoa());
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
                response.addRecord(addressRecord(owner, r.ttl(), r.answer(i).address()), Section.ANSWER);
            }
            return Rcode.NOERROR;
        }
        if (r.outcome() == Outcome.FALLBACK_IP) {
            response.addRecord(addressRecord(owner, r.ttl(), r.fallback()), Section.ANSWER);
            return Rcode.NOERROR;
        }
        if (r.outcome() == Outcome.DROP) {
            return DROPPED_BY_POLICY;
        }
        if (r.outcome() == Outcome.RETURN_TO_DNS) {
            RRset own = zone.rrset(wideIp.name(), type);
            if (own == null) {
                addSoa(response, zone, first, zone.negativeSoa());
            } else {
                own.rrs(false).forEach(rec -> response.addRecord(rec.withName(owner), Section.ANSWER));
            }
            return Rcode.NOERROR;
        }
        return failure(response, zone, owner, type, r.failure(), first);
    }

    private WideIpResolver.Result decide(WideIp wideIp, int type, Asker asker) {
        WideIpResolver.Scratch s = asker.scratch();
        s.query.set(asker.client(), type, System.currentTimeMillis());
        if (asker.ecs() != null) {
            s.query.clientSubnet(asker.ecs().getAddress(), asker.ecs().getSourcePrefixLength());
        }
        return resolver.resolve(wideIp, s);
    }

    /** F5's last resort: fallback addresses, or the configured rcode with its own TTL. */
    private static int failure(Message response, Zone zone, Name owner, int type, Failure f, boolean first) {
        Record soa = zone.soaWithTtl(f.ttl());
        switch (f.kind()) {
            case FALLBACK_IP -> {
                boolean any = false;
                for (InetAddress a : f.addresses()) {
                    if ((a instanceof java.net.Inet4Address) == (type == Type.A)) {
                        response.addRecord(addressRecord(owner, f.ttl(), a), Section.ANSWER);
                        any = true;
                    }
                }
                if (!any) {
                    addSoa(response, zone, first, soa);
                }
                return Rcode.NOERROR;
            }
            case NODATA -> {
                addSoa(response, zone, first, soa);
                return Rcode.NOERROR;
            }
            case NXDOMAIN -> {
                addSoa(response, zone, true, soa);
                return Rcode.NXDOMAIN;
            }
            case REFUSED -> {
                response.getHeader().unsetFlag(Flags.AA);
                return Rcode.REFUSED;
            }
            default -> {
                response.getHeader().unsetFlag(Flags.AA);
                return Rcode.SERVFAIL;
            }
        }
    }

    private static void addSoa(Message response, Zone zone, boolean first, Record soa) {
        if (first || response.getSection(Section.ANSWER).isEmpty()) {
            response.addRecord(soa, Section.AUTHORITY);
        }
    }

    static Record addressRecord(Name owner, long ttl, InetAddress address) {
        return address instanceof java.net.Inet4Address
                ? new ARecord(owner, DClass.IN, ttl, address)
                : new AAAARecord(owner, DClass.IN, ttl, address);
    }

    private Result chaos(Message response, Message query, Record question, Transport transport) {
        Name name = question.getName();
        int qtype = question.getType();
        String text = null;
        if (name.equals(ID_SERVER) || name.equals(HOSTNAME_BIND)) {
            text = identity.name();
        } else if (name.equals(VERSION_BIND) || name.equals(VERSION_SERVER)) {
            text = "gslb";
        }
        if (text == null || (qtype != Type.TXT && qtype != Type.ANY)) {
            return finish(response, query, Rcode.REFUSED, transport, true);
        }
        response.getHeader().setFlag(Flags.AA);
        response.addRecord(new TXTRecord(name, DClass.CH, 0, text), Section.ANSWER);
        return finish(response, query, Rcode.NOERROR, transport, true);
    }

    private Result finish(Message response, Message query, int rcode, Transport transport, boolean cacheable) {
        return finish(response, query, rcode, transport, cacheable, null);
    }

    private Result finish(Message response, Message query, int rcode, Transport transport, boolean cacheable,
                          Asker asker) {
        OPTRecord queryOpt = query == null ? null : query.getOPT();
        response.getHeader().setRcode(rcode & 0xF);
        int limit = 65535;
        if (queryOpt != null) {
            List<EDNSOption> options = new ArrayList<>(1);
            if (queryOpt.getOptions(EDNSOption.Code.NSID).size() > 0) {
                options.add(new GenericEDNSOption(EDNSOption.Code.NSID, identity.nameBytes()));
            }
            List<EDNSOption> subnet = rcode == Rcode.FORMERR ? List.of() : queryOpt.getOptions(EDNSOption.Code.CLIENT_SUBNET);
            if (subnet.size() == 1 && subnet.getFirst() instanceof ClientSubnetOption c) {
                // RFC 7871 7.2.1: echo the option with the scope actually used (0 for static data).
                int scope = asker != null && asker.ecs() != null && asker.decided() == null ? asker.scratch().query.scope() : 0;
                options.add(new ClientSubnetOption(c.getSourcePrefixLength(), scope, c.getAddress()));
            }
            int flags = queryOpt.getFlags() & org.xbill.DNS.ExtendedFlags.DO;
            response.addRecord(new OPTRecord(udpCap, rcode >>> 4, 0, flags, options), Section.ADDITIONAL);
            if (transport == Transport.UDP) {
                limit = Math.max(512, Math.min(queryOpt.getPayloadSize(), udpCap));
            }
        } else if (transport == Transport.UDP) {
            limit = 512;
        }
        return new Result(response.toWire(limit), rcode, cacheable);
    }

    private static void addSet(Message m, RRset set, int section) {
        for (Record r : set.rrs(false)) {
            m.addRecord(r, section);
        }
    }

    private static void copyFlag(Header from, Header to, int flag) {
        if (from.getFlag(flag)) {
            to.setFlag(flag);
        }
    }

    private static boolean isTransfer(int qtype) {
        return qtype == Type.AXFR || qtype == Type.IXFR;
    }

    /** At most one OPT, in the additional section, owned by the root (RFC 6891 6.1.1). */
    private static boolean validOpt(Message query) {
        for (int section : new int[] {Section.ANSWER, Section.AUTHORITY}) {
            for (Record r : query.getSection(section)) {
                if (r.getType() == Type.OPT) {
                    return false;
                }
            }
        }
        int opts = 0;
        for (Record r : query.getSection(Section.ADDITIONAL)) {
            if (r.getType() == Type.OPT) {
                opts++;
                if (!r.getName().equals(Name.root)) {
                    return false;
                }
            }
        }
        return opts <= 1;
    }

    /** A bare header: ID, opcode and RD copied, the given rcode, no sections (the query is unreadable). */
    private static Result headerOnly(byte[] packet, int rcode) {
        byte[] wire = new byte[12];
        wire[0] = packet[0];
        wire[1] = packet[1];
        wire[2] = (byte) (0x80 | (packet[2] & 0x79)); // QR, opcode, RD
        wire[3] = (byte) rcode;
        return new Result(wire, rcode, false);
    }
}
