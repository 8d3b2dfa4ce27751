package dev.gslb.dns.answer;

import dev.gslb.dns.rrl.ResponseRateLimiter;
import dev.gslb.dns.rrl.ResponseRateLimiter.Kind;
import dev.gslb.dns.zone.Zone;
import java.util.List;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The response class an answer is rate-limited in (docs/security.md "Response-rate limiting"), as
 * BIND names them: data per name and type, where the name is the wildcard's owner when a wildcard
 * made the answer and the type is the one the answer holds (a CNAME answers every type alike);
 * NODATA per name whatever the type (again the wildcard's owner for a wildcard); NXDOMAIN per zone;
 * referrals per zone cut; all errors in one class. So no class is keyed by anything a flood can
 * vary without end: random names fall into their zone's, wildcard's or cut's class, random types
 * into their name's NODATA or CNAME class.
 */
final class ResponseClasses {
    static final long ERRORS = ResponseRateLimiter.responseClass(Kind.ERROR, 0, 0);

    private ResponseClasses() {}

    /** Data for the question's own name and type (a wide IP's addresses, CHAOS). */
    static long answer(QueryView q) {
        return ResponseRateLimiter.responseClass(Kind.ANSWER, q.qnameHash, q.qtype);
    }

    static long nxdomain(Zone zone) {
        return ResponseRateLimiter.responseClass(Kind.NXDOMAIN, WireName.hash(zone.origin()), 0);
    }

    /**
     * The class of the answer {@code m} to {@code q} from {@code zone}; {@code wildcard} is the
     * owner of the wildcard that answered the query name, or null.
     */
    static long of(Message m, QueryView q, int rcode, Zone zone, boolean referral, Name wildcard) {
        if (rcode == Rcode.NXDOMAIN) {
            return nxdomain(zone);
        }
        if (rcode != Rcode.NOERROR) {
            return ERRORS;
        }
        if (referral) {
            Name cut = m.getSection(Section.AUTHORITY).getFirst().getName();
            return ResponseRateLimiter.responseClass(Kind.REFERRAL, WireName.hash(cut), Type.NS);
        }
        long name = wildcard != null ? WireName.hash(wildcard) : q.qnameHash;
        List<Record> answer = m.getSection(Section.ANSWER);
        if (answer.isEmpty()) {
            return ResponseRateLimiter.responseClass(Kind.NODATA, name, 0);
        }
        return ResponseRateLimiter.responseClass(
                Kind.ANSWER, name, answer.getFirst().getType());
    }
}
