package dev.gslb.dns.answer;

import dev.gslb.dns.wideip.VirtualServer;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
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

    /**
     * The wire answer, whether it may be cached, and whether a wide IP was answered (its LDNS is
     * then worth measuring); a null wire means drop the packet.
     */
    record Result(byte[] wire, int rcode, boolean cacheable, boolean wideIp) {
        Result forWideIp() {
            return new Result(wire, rcode, false, true);
        }
    }

    Result answer(Authority authority, byte[] packet, int length, Transport transport) {
        if (length < 12 || (packet[2] & 0x80) != 0) {
            return new Result(null, 0, false, false); // too short to answer, or a response: never reply
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
        if (question.getDClass() == DClass.CH) {
            return chaos(response, query, question, transport);
        }
        if (question.getDClass() != DClass.IN || isTransfer(qtype)) {
            return finish(response, query, Rcode.REFUSED, transport, false);
        }
        return internet(authority, response, query, question.getName(), qtype, transport);
    }

    private Result internet(Authority authority, Message response, Message query, Name qname, int qtype,
                            Transport transport) {
        Zone zone = authority.zones().find(qname);
        if (zone == null) {
            return finish(response, query, Rcode.REFUSED, transport, true);
        }
        response.getHeader().setFlag(Flags.AA);
        WideIp wideIp = authority.wideIp(qname);
        if (wideIp != null) {
            int rcode = addWideIp(response, zone, wideIp, qname, qtype, true);
            return finish(response, query, rcode, transport, false).forWideIp();
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
            rcode = addWideIp(response, targetZone, target, a.pendingTarget(), qtype, false);
            return finish(response, query, rcode, transport, false).forWideIp();
        }
        return finish(response, query, rcode, transport, cacheable);
    }

    /** Adds the wide IP's chosen address, or the zone's SOA for NODATA when it has none of that type. */
    private int addWideIp(Message response, Zone zone, WideIp wideIp, Name owner, int qtype, boolean first) {
        List<Integer> types = switch (qtype) {
            case Type.A -> List.of(Type.A);
            case Type.AAAA -> List.of(Type.AAAA);
            case Type.ANY -> List.of(Type.A, Type.AAAA);
            default -> List.of();
        };
        for (int type : types) {
            VirtualServer vs = resolver.resolve(wideIp, type);
            if (vs != null) {
                response.addRecord(addressRecord(owner, wideIp.ttl(), vs), Section.ANSWER);
                return Rcode.NOERROR;
            }
        }
        if (first || response.getSection(Section.ANSWER).isEmpty()) {
            response.addRecord(zone.negativeSoa(), Section.AUTHORITY);
        }
        return Rcode.NOERROR;
    }

    static Record addressRecord(Name owner, long ttl, VirtualServer vs) {
        return vs.isIpv4()
                ? new ARecord(owner, DClass.IN, ttl, vs.address())
                : new AAAARecord(owner, DClass.IN, ttl, vs.address());
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
        OPTRecord queryOpt = query == null ? null : query.getOPT();
        response.getHeader().setRcode(rcode & 0xF);
        int limit = 65535;
        if (queryOpt != null) {
            List<EDNSOption> options = new ArrayList<>(1);
            if (queryOpt.getOptions(EDNSOption.Code.NSID).size() > 0) {
                options.add(new GenericEDNSOption(EDNSOption.Code.NSID, identity.nameBytes()));
            }
            int flags = queryOpt.getFlags() & org.xbill.DNS.ExtendedFlags.DO;
            response.addRecord(new OPTRecord(udpCap, rcode >>> 4, 0, flags, options), Section.ADDITIONAL);
            if (transport == Transport.UDP) {
                limit = Math.max(512, Math.min(queryOpt.getPayloadSize(), udpCap));
            }
        } else if (transport == Transport.UDP) {
            limit = 512;
        }
        return new Result(response.toWire(limit), rcode, cacheable, false);
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
        return new Result(wire, rcode, false, false);
    }
}
