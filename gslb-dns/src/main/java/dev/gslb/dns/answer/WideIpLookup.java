package dev.gslb.dns.answer;

import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.rrl.ResponseRateLimiter;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.site.VirtualServer;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import org.xbill.DNS.Type;

/**
 * The lookup stage's wide-IP part: a wide IP a query reaches, by its own name or at the end of a
 * CNAME chain, is decided here once, and the decision becomes the reply: addresses for
 * {@link AnswerWriter} (the members chosen, a pool's fallback address, the wide IP's failure
 * addresses), or a body for the other outcomes ({@link MessageAnswerer#complete}). A question for
 * the wide IP's own name allocates nothing when it is answered with addresses.
 */
final class WideIpLookup {
    private final WideIpResolver resolver;
    private final MessageAnswerer full;

    WideIpLookup(WideIpResolver resolver, MessageAnswerer full) {
        this.resolver = resolver;
        this.full = full;
    }

    /**
     * Decides {@code w} for {@code q} from the LDNS {@code hi:lo} at {@code nowMillis} and fills
     * {@code reply}; {@code pending} is the answer built so far, null for a question of the wide
     * IP's own name (built only if the decision is not addresses). False when the query is dropped.
     */
    boolean answer(
            Authority authority,
            WideIp w,
            MessageAnswerer.Pending pending,
            QueryView q,
            long hi,
            long lo,
            long nowMillis,
            WideIpResolver.Scratch s,
            Reply reply) {
        int type = q.qtype == Type.AAAA ? Type.AAAA : Type.A;
        reply.decided = w;
        WideIpResolver.Result r = decide(w, type, q, hi, lo, nowMillis, s);
        if (q.qtype == Type.ANY && r.outcome() != Outcome.PICKED) {
            type = Type.AAAA;
            r = decide(w, type, q, hi, lo, nowMillis, s);
        }
        int scope = q.ecsFamily != 0 ? s.query.scope() : 0;
        if (addresses(r, type, q, pending, scope, reply)) {
            return true;
        }
        MessageAnswerer.Pending p = pending;
        if (p == null) {
            MessageAnswerer.Result m = full.answer(authority, q);
            if (m.pending() == null) { // the guard's name and the parsed one differ: cannot happen
                reply.body(m.body());
                return true;
            }
            p = m.pending();
        }
        MessageAnswerer.Result m = full.complete(p, q, r, type, scope);
        if (m.body() == null) {
            return false;
        }
        reply.body(m.body());
        return true;
    }

    /** Runs {@code w}'s decision for {@code q} (its client subnet, if any, too) as the query's one decision. */
    private WideIpResolver.Result decide(
            WideIp w, int type, QueryView q, long hi, long lo, long nowMillis, WideIpResolver.Scratch s) {
        s.query.set(hi, lo, type, nowMillis);
        if (q.ecsFamily != 0) {
            s.query.clientSubnet(q.buf, q.ecsAddress, q.ecsAddressLength, q.ecsFamily == 1, q.ecsSourcePrefix);
        }
        return resolver.resolve(w, s);
    }

    /** Puts the decision's addresses in the reply; false when it has none of {@code type}. */
    private boolean addresses(
            WideIpResolver.Result r, int type, QueryView q, MessageAnswerer.Pending p, int scope, Reply reply) {
        Outcome o = r.outcome();
        Failure f = o == Outcome.PICKED || o == Outcome.FALLBACK_IP || o == Outcome.DROP || o == Outcome.RETURN_TO_DNS
                ? null
                : r.failure();
        if (o != Outcome.PICKED
                && o != Outcome.FALLBACK_IP
                && (f == null || f.kind() != Failure.Kind.FALLBACK_IP || !anyOf(f.addresses(), type))) {
            return false;
        }
        AnswerBody chain = p == null ? null : full.chain(p, q, scope);
        int ownerAt = QueryView.HEADER; // the question's name
        byte[] ownerWire = null;
        if (chain != null) { // the chain's target, where the body (written after the question) holds it
            int target = chain.chainTarget();
            ownerAt = target < 0 ? -1 : q.questionEnd + target;
            if (ownerAt < 0 || ownerAt >= 0x4000) {
                ownerWire = p.owner().toWire(); // cannot happen for a chain of a few names: written out
            }
        }
        reply.addresses(type, f == null ? r.ttl() : f.ttl(), chain, ownerAt, ownerWire);
        if (o == Outcome.PICKED) {
            for (int i = 0; i < r.count(); i++) {
                VirtualServer vs = r.answer(i);
                reply.add(vs.hi(), vs.lo());
            }
        } else if (o == Outcome.FALLBACK_IP) {
            reply.add(r.fallback());
        } else {
            for (InetAddress a : f.addresses()) {
                if ((a instanceof Inet4Address) == (type == Type.A)) {
                    reply.add(a);
                }
            }
        }
        reply.ecsScope = scope;
        reply.rateClass = chain != null
                ? chain.rateClass
                : ResponseRateLimiter.responseClass(ResponseRateLimiter.Kind.ANSWER, q.qnameHash, type);
        return true;
    }

    private static boolean anyOf(List<InetAddress> addresses, int type) {
        for (InetAddress a : addresses) {
            if ((a instanceof Inet4Address) == (type == Type.A)) {
                return true;
            }
        }
        return false;
    }
}
