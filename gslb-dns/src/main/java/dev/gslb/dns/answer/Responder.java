package dev.gslb.dns.answer;

import dev.gslb.dns.cookie.ServerCookies;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.rrl.ResponseRateLimiter;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * Turns one query packet into one answer packet: the parse guard ({@link QueryView}) first, then
 * the answer (a cached body, a wide-IP decision written directly, or a body built by
 * {@link MessageAnswerer}), then the cookie and the rate limit, then {@link AnswerWriter}. Never
 * throws for any input: a bad packet gets FORMERR or is dropped and counted.
 */
public final class Responder implements AutoCloseable {
    /** UDP queries larger than this are dropped unread (NSD and Knot do the same); a real query is a few dozen bytes. */
    public static final int MAX_UDP_QUERY = 4096;
    /** RFC 7873: BADCOOKIE, 23 (extended rcode 1, header rcode 7). */
    private static final int BADCOOKIE = 23;

    private record Served(Authority authority, ResponseCache cache) {}

    /** One event-loop thread's reusable objects: the query path allocates none of its own. */
    private final class PerThread {
        final QueryView query = new QueryView();
        final AnswerWriter writer = new AnswerWriter(settings.ednsUdpSize(), nsid);
        final WideIpResolver.Scratch scratch = new WideIpResolver.Scratch();
    }

    private final WideIpResolver resolver;
    private final MessageAnswerer full;
    private final DnsMetrics metrics;
    private final AnswerSettings settings;
    private final byte[] nsid;
    private final ServerCookies cookies;
    private final ResponseRateLimiter limiter;
    private final ThrottledLog limitLog = new ThrottledLog("gslb.rrl");
    private final ThrottledLog errorLog = new ThrottledLog("gslb.dns");
    private final ThreadLocal<PerThread> threads = ThreadLocal.withInitial(PerThread::new);
    private volatile Served served;

    public Responder(Authority authority, WideIpResolver resolver, InstanceIdentity identity, DnsMetrics metrics,
                     AnswerSettings settings) {
        this.resolver = resolver;
        this.full = new MessageAnswerer(resolver, identity);
        this.metrics = metrics;
        this.settings = settings;
        this.nsid = identity.name().getBytes(StandardCharsets.US_ASCII);
        this.cookies = settings.cookies() ? new ServerCookies(settings.cookieRotation(),
                () -> System.currentTimeMillis() / 1000) : null;
        this.limiter = new ResponseRateLimiter(settings.rateLimit());
        replace(authority);
    }

    /** Swaps in new zones and wide IPs; queries in flight finish on the old ones. */
    public void replace(Authority authority) {
        served = new Served(authority, new ResponseCache(settings.cacheBytes()));
    }

    public Authority authority() {
        return served.authority();
    }

    /** Bytes the answer cache holds now. */
    public long cacheBytes() {
        return served.cache().bytes();
    }

    /**
     * Writes the answer to {@code packet[0, length)} into {@code out}.
     *
     * @return false when nothing is to be sent (the packet was dropped)
     */
    public boolean respond(byte[] packet, int length, Transport transport, InetAddress client, ByteBuf out) {
        PerThread t = threads.get();
        QueryView q = t.query;
        int start = out.writerIndex();
        try {
            return answer(t, q.read(packet, length, transport), transport, client, out);
        } catch (RuntimeException e) {
            metrics.dropped(DnsMetrics.Drop.INTERNAL_ERROR); // a bug: the packet is dropped, the listener goes on
            if (errorLog.admit()) {
                errorLog.line("internal error answering a query (dropped): " + e + " at " + e.getStackTrace()[0]);
            }
            out.writerIndex(start);
            return false;
        }
    }

    private boolean answer(PerThread t, QueryView.Verdict verdict, Transport transport, InetAddress client,
                           ByteBuf out) {
        QueryView q = t.query;
        AnswerWriter w = t.writer;
        switch (verdict) {
            case DROP_SHORT, DROP_RESPONSE -> {
                metrics.dropped(DnsMetrics.Drop.NOT_A_QUERY);
                return false;
            }
            case DROP_OVERSIZE -> {
                metrics.dropped(DnsMetrics.Drop.OVERSIZE);
                return false;
            }
            case FORMERR, NOTIMP, BADVERS -> {
                if (verdict == QueryView.Verdict.FORMERR) {
                    metrics.dropped(DnsMetrics.Drop.MALFORMED);
                }
                int rcode = verdict == QueryView.Verdict.FORMERR ? Rcode.FORMERR
                        : verdict == QueryView.Verdict.NOTIMP ? Rcode.NOTIMP : Rcode.BADVERS;
                if (limited(t, transport, client, MessageAnswerer.ERRORS, false, false, out)) {
                    return out.isReadable();
                }
                // FORMERR and NOTIMP say nothing about options they did not read; BADVERS answers in EDNS 0.
                boolean badvers = verdict == QueryView.Verdict.BADVERS;
                w.begin(out, q, transport, false, rcode, verdict != QueryView.Verdict.FORMERR && q.questionReadable,
                        badvers, false);
                w.finish();
                metrics.answered(transport, rcode);
                return true;
            }
            default -> { }
        }
        boolean validCookie = cookie(t, client);
        if (verdict == QueryView.Verdict.COOKIE_ONLY) { // RFC 7873 5.4: a server cookie, no question
            if (limited(t, transport, client, MessageAnswerer.ERRORS, validCookie, true, out)) {
                return out.isReadable();
            }
            w.begin(out, q, transport, false, Rcode.NOERROR, false, true, cookies != null);
            w.finish();
            metrics.answered(transport, Rcode.NOERROR);
            return true;
        }
        Served s = served;
        AnswerBody body = s.cache().get(q);
        WideIpResolver.Result decided = null;
        if (body == null && (q.qtype == Type.A || q.qtype == Type.AAAA) && q.qclass == 1) {
            WideIp wideIp = s.authority().wideIp(q);
            if (wideIp != null) {
                decided = decide(t, wideIp, client);
                if (decided.outcome() == Outcome.PICKED || decided.outcome() == Outcome.FALLBACK_IP) {
                    if (limited(t, transport, client, MessageAnswerer.answerClass(q), validCookie, true, out)) {
                        return out.isReadable();
                    }
                    w.begin(out, q, transport, true, Rcode.NOERROR, true, q.hasOpt, cookies != null);
                    w.ecsScope(q.ecsFamily != 0 ? t.scratch.query.scope() : 0);
                    w.addresses(q.qtype, decided);
                    w.finish();
                    metrics.answered(transport, Rcode.NOERROR);
                    return true;
                }
            }
        }
        if (body == null) {
            MessageAnswerer.Result r = full.answer(s.authority(), q, client, t.scratch, decided);
            if (r.body() == null) {
                metrics.dropped(DnsMetrics.Drop.POLICY);
                return false;
            }
            body = r.body();
            if (r.cacheable()) {
                s.cache().put(q, body);
            }
        }
        if (limited(t, transport, client, body.rateClass, validCookie, true, out)) {
            return out.isReadable();
        }
        w.begin(out, q, transport, body.authoritative, body.rcode, true, q.hasOpt, cookies != null);
        w.ecsScope(body.ecsScope);
        w.body(body);
        w.finish();
        metrics.answered(transport, body.rcode);
        return true;
    }

    private WideIpResolver.Result decide(PerThread t, WideIp wideIp, InetAddress client) {
        QueryView q = t.query;
        WideIpResolver.Scratch sc = t.scratch;
        sc.query.set(client, q.qtype, System.currentTimeMillis());
        if (q.ecsFamily != 0) {
            sc.query.clientSubnet(q.buf, q.ecsAddress, q.ecsAddressLength, q.ecsFamily == 1, q.ecsSourcePrefix);
        }
        return resolver.resolve(wideIp, sc);
    }

    /**
     * Reads the query's COOKIE option, counts it, and prepares our server cookie for the answer.
     * True when the client presented a valid server cookie of ours (so it is not spoofed).
     */
    private boolean cookie(PerThread t, InetAddress client) {
        QueryView q = t.query;
        if (!q.hasClientCookie()) {
            return false;
        }
        if (cookies == null) {
            return false;
        }
        boolean valid = q.cookieLength > ServerCookies.CLIENT_COOKIE
                && cookies.valid(q.buf, q.cookie, q.cookieLength, client);
        metrics.cookie(valid ? DnsMetrics.Cookie.VALID
                : q.cookieLength > ServerCookies.CLIENT_COOKIE ? DnsMetrics.Cookie.INVALID : DnsMetrics.Cookie.CLIENT_ONLY);
        cookies.write(q.buf, q.cookie, client, t.writer.serverCookie, 0);
        return valid;
    }

    /**
     * Response-rate limiting of a UDP answer of {@code rateClass}. True when the answer must not be
     * sent as is: either nothing is written (dropped), or the slip answer is: BADCOOKIE with a
     * fresh server cookie to a client that sent a cookie (RFC 7873 5.2.3: it retries with it and
     * is then exempt), else an empty answer with TC (a real resolver retries over TCP).
     * {@code cookieRead}: the query's cookie was read and our server cookie prepared.
     */
    private boolean limited(PerThread t, Transport transport, InetAddress client, long rateClass, boolean validCookie,
                            boolean cookieRead, ByteBuf out) {
        if (transport == Transport.TCP || validCookie || limiter.exempt(client)) {
            return false;
        }
        int v = limiter.check(client, rateClass);
        if ((v & (ResponseRateLimiter.STARTED | ResponseRateLimiter.ENDED)) != 0 && limitLog.admit()) {
            limitLog.line("rate limit: " + limiter.networkOf(client) + ((v & ResponseRateLimiter.STARTED) != 0
                    ? " is now limited (over " + limiter.settings().responsesPerSecond() + " answers/s of one kind)"
                    : " is answered in full again"));
        }
        int action = v & ResponseRateLimiter.ACTION;
        if (action == ResponseRateLimiter.PASS) {
            return false;
        }
        metrics.rateLimited(action == ResponseRateLimiter.SLIP);
        if (action == ResponseRateLimiter.SLIP) {
            QueryView q = t.query;
            AnswerWriter w = t.writer;
            boolean badCookie = cookieRead && cookies != null && q.hasClientCookie();
            w.begin(out, q, transport, false, badCookie ? BADCOOKIE : Rcode.NOERROR, q.questionReadable, q.hasOpt,
                    badCookie);
            if (!badCookie) {
                w.truncate();
            }
            w.finish();
        }
        return true;
    }

    @Override
    public void close() {
        limitLog.close();
        errorLog.close();
    }
}
