package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.rrl.ResponseRateLimiter;
import dev.gslb.dns.wideip.CnameTarget;
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
    /** Wide IPs one answer may pass through (CNAME pools into wide IPs); a loop ends there. */
    private static final int MAX_HOPS = 8;

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
        for (int hops = 0; ; hops++) { // more than once only when a CNAME pool's name leads to another wide IP
            int type = q.qtype == Type.AAAA ? Type.AAAA : Type.A; // other types: as A, only a CNAME answers them
            reply.decided = w;
            WideIpResolver.Result r = decide(w, type, q, hi, lo, nowMillis, s);
            if (q.qtype == Type.ANY && r.outcome() != Outcome.PICKED) {
                type = Type.AAAA;
                r = decide(w, type, q, hi, lo, nowMillis, s);
            }
            int scope = q.ecsFamily != 0 ? s.query.scope() : 0;
            CnameTarget target = r.outcome() == Outcome.PICKED ? r.cname() : null;
            if (target != null && !authority.serves(target)) {
                cname(target, r.ttl(), q, pending, scope, authority.rateName(w, q), reply);
                reply.chain = pending;
                return true;
            }
            if (target == null
                    && MessageAnswerer.addressQuestion(q)
                    && addresses(r, type, q, pending, scope, authority.rateName(w, q), reply)) {
                reply.chain = pending;
                return true;
            }
            MessageAnswerer.Result m = built(authority, r, target, type, pending, q, scope);
            if (m.pending() != null && hops < MAX_HOPS) {
                w = m.pending().wideIp();
                pending = m.pending();
                continue;
            }
            if (m.pending() != null) { // a loop of wide IPs: the chain so far, the resolver gives up on it
                m = new MessageAnswerer.Result(full.chain(m.pending(), q, scope), false);
            }
            if (m.body() == null) {
                return false;
            }
            reply.body(m.body());
            return true;
        }
    }

    /**
     * The decision {@code r} answered with a body built by {@link MessageAnswerer}: a CNAME pool's
     * name inside a zone served here (the chain goes on; another wide IP it reaches comes back
     * pending), NODATA for a question of another type, or the outcomes other than addresses.
     */
    private MessageAnswerer.Result built(
            Authority authority,
            WideIpResolver.Result r,
            CnameTarget target,
            int type,
            MessageAnswerer.Pending pending,
            QueryView q,
            int scope) {
        MessageAnswerer.Pending p = pending;
        if (p == null) {
            MessageAnswerer.Result m = full.answer(authority, q);
            if (m.pending() == null) { // the guard's name and the parsed one differ: cannot happen
                return m;
            }
            p = m.pending();
        }
        if (target != null) { // on into a zone served here, as a zone's own chain goes
            return full.follow(authority, p, target.name(), r.ttl(), q, scope);
        }
        if (!MessageAnswerer.addressQuestion(q) && r.outcome() != Outcome.DROP) {
            return full.nodata(p, q, scope); // a name of addresses, when no CNAME pool answered
        }
        return full.complete(p, q, r, type, scope);
    }

    /**
     * A CNAME pool's answer to a name outside every zone served here: one CNAME record, after the
     * chain that led to the wide IP if any, its target copied from the bytes made when the pool
     * was built; rate-limited under {@code rateName}. Allocates nothing.
     */
    private void cname(
            CnameTarget target,
            long ttl,
            QueryView q,
            MessageAnswerer.Pending p,
            int scope,
            long rateName,
            Reply reply) {
        AnswerBody chain = p == null ? null : full.chain(p, q, scope);
        int ownerAt = ownerAt(chain, q);
        reply.cname(ttl, chain, ownerAt, ownerAt < 0 ? p.owner().toWire() : null, target.wire());
        reply.ecsScope = scope;
        reply.rateClass = chain != null
                ? chain.rateClass
                : ResponseRateLimiter.responseClass(ResponseRateLimiter.Kind.ANSWER, rateName, Type.CNAME);
    }

    /**
     * The signatures of the addresses or alias {@link #answer} put in {@code reply}, for a query
     * with DO when the wide IP's zone is signed here: owned by the question's name, or by the name
     * the chain ended at; SERVFAIL when the signing budget held a signature back. Apart from
     * {@link #answer}, so that the unsigned path stays as it was.
     */
    static void sign(Authority authority, QueryView q, long nowMillis, Reply reply) {
        MessageAnswerer.Pending p = reply.chain;
        Signer signer = authority.signer(p == null ? authority.zoneOf(reply.decided) : p.wideIpZone());
        if (signer != null) {
            reply.signatures = authority.signatures().of(signer, reply, q, p == null ? null : p.owner(), nowMillis);
        }
        if (reply.body == AnswerBody.OVER_BUDGET || signer != null && reply.signatures == null) {
            reply.signatures = null;
            reply.body(AnswerBody.OVER_BUDGET); // a signature it needs was held back by the signing budget
        }
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

    /**
     * Puts the decision's addresses in the reply, rate-limited under {@code rateName} unless a chain
     * led here; false when it has none of {@code type}.
     */
    private boolean addresses(
            WideIpResolver.Result r,
            int type,
            QueryView q,
            MessageAnswerer.Pending p,
            int scope,
            long rateName,
            Reply reply) {
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
        int ownerAt = ownerAt(chain, q);
        reply.addresses(
                type,
                f == null ? r.ttl() : f.ttl(),
                chain,
                ownerAt,
                ownerAt < 0 ? p.owner().toWire() : null);
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
                : ResponseRateLimiter.responseClass(ResponseRateLimiter.Kind.ANSWER, rateName, type);
        return true;
    }

    /**
     * Where the answer's owner name is for a pointer: the question's, or the target of the chain
     * that led to the wide IP (in the body written after the question); -1 when it cannot be
     * pointed at (never for a chain of a few names): then it is written out.
     */
    private static int ownerAt(AnswerBody chain, QueryView q) {
        if (chain == null) {
            return QueryView.HEADER;
        }
        int target = chain.chainTarget();
        int at = target < 0 ? -1 : q.questionEnd + target;
        return at < 0x4000 ? at : -1;
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
