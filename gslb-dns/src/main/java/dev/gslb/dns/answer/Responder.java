package dev.gslb.dns.answer;

import dev.gslb.dns.cookie.ServerCookies;
import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.SigningBudget;
import dev.gslb.dns.dnstap.Dnstap;
import dev.gslb.dns.rrl.ResponseRateLimiter;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * Turns one query packet from a client given as its 128-bit address (two longs, IPv4 mapped) into
 * one answer packet, in a fixed list of stages: the guard ({@link QueryView}'s verdict), cookies,
 * the lookup (one {@link Reply}: a cached or built body, or a wide IP's addresses from its one
 * decision), the rate limit, then the one writer ({@link AnswerWriter}). Never throws for any
 * input: a bad packet gets FORMERR or is dropped and counted.
 */
public final class Responder implements AutoCloseable {
    /** UDP queries larger than this are dropped unread (NSD and Knot do the same); a real query is a few dozen bytes. */
    public static final int MAX_UDP_QUERY = 4096;
    /** RFC 7873: BADCOOKIE, 23 (extended rcode 1, header rcode 7). */
    private static final int BADCOOKIE = 23;

    /**
     * The zones in service and their prepared answers. Names that do not exist have a cache of
     * their own, an eighth of the budget, so a flood of random names recycles only that one and
     * never pushes out the answers to names that exist; and an unsigned denial is kept there only
     * when its name is asked a second time, so the flood's names, each asked once, are not kept
     * at all (a signed one is kept at once: its signature was counted against the budget).
     */
    private record Served(Authority authority, ResponseCache cache, ResponseCache negatives) {
        Served(Authority authority, long budget) {
            this(authority, new ResponseCache(budget), new ResponseCache(Math.max(64 << 10, budget / 8), true));
        }
    }

    /**
     * One thread's reusable objects: the query path allocates none of its own. A thread that
     * answers in a loop of its own keeps one ({@link #worker()}); others find theirs in a
     * thread-local.
     */
    public final class Worker {
        final QueryView query = new QueryView();
        final Reply reply = new Reply();
        final AnswerWriter writer = new AnswerWriter(settings.ednsUdpSize(), nsid);
        final WideIpResolver.Scratch scratch = new WideIpResolver.Scratch();
        /** Queries this thread has answered while dnstap logs: what its sampling counts. */
        long tapped;
    }

    private final MessageAnswerer full;
    private final WideIpLookup wideIps;
    private final WideIpResolver resolver;
    private final DnsMetrics metrics;
    private final AnswerSettings settings;
    private final byte[] nsid;
    private final ServerCookies cookies;
    private final ResponseRateLimiter limiter;
    private final ThrottledLog limitLog = new ThrottledLog("gslb.rrl");
    private final ThrottledLog errorLog = new ThrottledLog("gslb.dns");
    private final ThreadLocal<Worker> threads = ThreadLocal.withInitial(Worker::new);
    /** Query logging, or null when it is off: then a query pays this one check. */
    private final Dnstap tap;

    private volatile Served served;
    private volatile KeyRing keyRing = KeyRing.EMPTY;
    /** The TSIG keys a signed query is checked with; none: every signed query gets BADKEY from the guard. */
    private volatile TsigKeys tsigKeys = TsigKeys.NONE;
    /** Who takes NOTIFY (the secondary zones), or null: NOTIFY is not implemented. */
    private volatile NotifyReceiver notifies;
    /**
     * NOTIFY read a second at most (a flood of them costs a parse each, and a primary sends a few):
     * one budget for the primaries' addresses, one for every other, so a flood from elsewhere does
     * not shut a primary out.
     */
    private final SigningBudget notifyBudget;

    private final SigningBudget primaryNotifyBudget;

    static final int NOTIFY_PER_SECOND = 100;
    /** Shared by every zone and kept across reloads: the CPU it guards is the server's. */
    private final SigningBudget signingBudget;

    public Responder(
            Authority authority,
            WideIpResolver resolver,
            InstanceIdentity identity,
            DnsMetrics metrics,
            AnswerSettings settings) {
        this(authority, resolver, identity, metrics, settings, System::nanoTime, null);
    }

    /**
     * With the time response-rate limiting and the signing budget count in (the system's monotonic
     * clock in service) and query logging to {@code tap} (null: not logged).
     */
    public Responder(
            Authority authority,
            WideIpResolver resolver,
            InstanceIdentity identity,
            DnsMetrics metrics,
            AnswerSettings settings,
            LongSupplier rateLimitTime,
            Dnstap tap) {
        this.tap = tap;
        this.full = new MessageAnswerer(identity);
        this.wideIps = new WideIpLookup(resolver, full);
        this.resolver = resolver;
        this.metrics = metrics;
        this.settings = settings;
        this.nsid = identity.name().getBytes(StandardCharsets.US_ASCII);
        this.cookies = settings.cookies()
                ? new ServerCookies(settings.cookieRotation(), System.currentTimeMillis() / 1000)
                : null;
        this.limiter = new ResponseRateLimiter(settings.rateLimit(), rateLimitTime);
        this.signingBudget = new SigningBudget(settings.signaturesPerSecond(), rateLimitTime);
        this.notifyBudget = new SigningBudget(NOTIFY_PER_SECOND, rateLimitTime);
        this.primaryNotifyBudget = new SigningBudget(NOTIFY_PER_SECOND, rateLimitTime);
        replace(authority);
    }

    /** Swaps in new zones and wide IPs; queries in flight finish on the old ones. */
    public synchronized void replace(Authority authority) { // reloads, key changes, secondary zones: one at a time
        resolver.countAnswersOf(authority.wideIps().values());
        served = new Served(
                authority.withKeys(keyRing, System::currentTimeMillis, metrics.signing(), signingBudget),
                settings.cacheBytes());
    }

    public Authority authority() {
        return served.authority();
    }

    /**
     * Swaps in the keys of the zones signed here (made, read, rolled or received from a peer);
     * answers signed with the previous keys are made again.
     */
    public synchronized void keys(KeyRing ring) {
        keyRing = ring;
        served = new Served(
                served.authority().withKeys(ring, System::currentTimeMillis, metrics.signing(), signingBudget),
                settings.cacheBytes());
    }

    /** Who takes NOTIFY from now on (null: answered NOTIMP). */
    public void notifies(NotifyReceiver receiver) {
        notifies = receiver;
    }

    /** Swaps in the TSIG keys signed queries are checked with. */
    public void tsigKeys(TsigKeys keys) {
        tsigKeys = keys;
    }

    /** The keys answers are signed with now. */
    public KeyRing keys() {
        return keyRing;
    }

    /** Bytes the answer caches hold now. */
    public long cacheBytes() {
        return served.cache().bytes() + served.negatives().bytes();
    }

    /**
     * Writes the answer to {@code packet[0, length)} from the client {@code hi:lo} (the 128-bit
     * form, IPv4 mapped) into {@code out}.
     *
     * @return false when nothing is to be sent (the packet was dropped)
     */
    public boolean respond(byte[] packet, int length, Transport transport, long hi, long lo, ByteBuf out) {
        return respond(packet, length, transport, hi, lo, 0, out);
    }

    /** {@link #respond(byte[], int, Transport, long, long, ByteBuf)} from the client's {@code port} (for dnstap). */
    public boolean respond(byte[] packet, int length, Transport transport, long hi, long lo, int port, ByteBuf out) {
        return respond(threads.get(), packet, length, transport, hi, lo, port, System.currentTimeMillis(), out);
    }

    /** The reusable objects for one thread that calls {@link #respond(Worker, byte[], int, Transport, long, long, long, ByteBuf)}. */
    public Worker worker() {
        return new Worker();
    }

    /**
     * {@link #respond(byte[], int, Transport, long, long, ByteBuf)} with this thread's own
     * {@link #worker()}, for a query that arrived at {@code nowMillis} (a listener reads the clock
     * once for a batch of queries: a clock read costs more than a cached answer on some hosts).
     */
    public boolean respond(
            Worker t, byte[] packet, int length, Transport transport, long hi, long lo, long nowMillis, ByteBuf out) {
        return respond(t, packet, length, transport, hi, lo, 0, nowMillis, out);
    }

    /**
     * {@link #respond(Worker, byte[], int, Transport, long, long, long, ByteBuf)} from the client's
     * {@code port}; a query the guard took as one is then logged to dnstap, when that is on and
     * this query is in its sample.
     */
    public boolean respond(
            Worker t,
            byte[] packet,
            int length,
            Transport transport,
            long hi,
            long lo,
            int port,
            long nowMillis,
            ByteBuf out) {
        int start = out.writerIndex();
        try {
            Reply r = t.reply;
            QueryView.Verdict verdict = t.query.read(packet, length, transport);
            TsigKeys keys = tsigKeys;
            NotifyReceiver receiver = notifies;
            if (verdict == QueryView.Verdict.NOTIMP
                    && t.query.opcode == org.xbill.DNS.Opcode.NOTIFY
                    && receiver != null) {
                return notify(receiver, keys, packet, length, hi, lo, out);
            }
            if (verdict == QueryView.Verdict.BADKEY && !keys.isEmpty()) {
                return signed(t, keys, packet, length, transport, hi, lo, port, nowMillis, out);
            }
            int guarded = guard(t.query, verdict, r);
            if (guarded == DROPPED) {
                return false;
            }
            if (guarded == QUESTION) {
                cookies(t, hi, lo, nowMillis, r);
                if (verdict == QueryView.Verdict.COOKIE_ONLY) { // RFC 7873 5.4: a server cookie, no question
                    r.rateClass = ResponseClasses.ERRORS;
                } else if (!lookup(t, hi, lo, nowMillis, r)) {
                    metrics.dropped(DnsMetrics.Drop.POLICY);
                    return false;
                }
            }
            if (limited(t, transport, hi, lo, r, out)) {
                return out.isReadable(); // dropped, or the slip answer was written
            }
            write(t, transport, r, nowMillis, out);
            return true;
        } catch (RuntimeException | Error e) { // a bug, or out of memory: this packet is dropped, the listener goes on
            metrics.dropped(DnsMetrics.Drop.INTERNAL_ERROR);
            if (errorLog.admit()) {
                errorLog.line("internal error answering a query (dropped): " + e + " at " + e.getStackTrace()[0]);
            }
            out.writerIndex(start);
            return false;
        } finally {
            Dnstap tap = this.tap;
            if (tap != null) { // a query the guard took as one, answered or dropped, when in the sample
                boolean sent = out.writerIndex() > start; // every stage that answers writes; none that drops does
                if ((sent || t.reply.question) && tap.sampled(t.tapped++)) {
                    tap.capture(
                            packet,
                            length,
                            transport == Transport.TCP,
                            hi,
                            lo,
                            port,
                            nowMillis,
                            sent ? out : null,
                            start,
                            t.reply.decided,
                            t.scratch.result);
                }
            }
        }
    }

    /**
     * A query signed with TSIG while this server has keys (RFC 8945): checked, then answered as
     * the same query unsigned would be, and that answer signed; a check that fails gets its TSIG
     * error. Off the allocation-free path: signed queries come from secondaries and operators, a
     * few a minute.
     */
    private boolean signed(
            Worker t,
            TsigKeys keys,
            byte[] packet,
            int length,
            Transport transport,
            long hi,
            long lo,
            int port,
            long nowMillis,
            ByteBuf out) {
        TsigKeys.Checked checked;
        try {
            checked = keys.check(packet, length);
        } catch (java.io.IOException e) { // the guard read it whole; cannot happen
            metrics.dropped(DnsMetrics.Drop.MALFORMED);
            return false;
        }
        if (checked.error() != Rcode.NOERROR) {
            out.writeBytes(checked.errorAnswer());
            return true;
        }
        byte[] unsigned = java.util.Arrays.copyOf(packet, t.query.tsigOwner); // the TSIG is the last record
        int additional = ((unsigned[10] & 0xFF) << 8 | (unsigned[11] & 0xFF)) - 1;
        unsigned[10] = (byte) (additional >> 8);
        unsigned[11] = (byte) additional;
        ByteBuf answer = io.netty.buffer.Unpooled.buffer(512);
        try {
            if (!respond(t, unsigned, unsigned.length, transport, hi, lo, port, nowMillis, answer)) {
                return false;
            }
            byte[] body = new byte[answer.readableBytes()];
            answer.getBytes(answer.readerIndex(), body);
            org.xbill.DNS.Message m = new org.xbill.DNS.Message(body);
            checked.sign(m);
            byte[] wire = m.toWire();
            int limit = transport == Transport.TCP
                    ? 65535
                    : t.query.hasOpt ? Math.max(512, Math.min(t.query.udpPayload, settings.ednsUdpSize())) : 512;
            if (wire.length > limit) { // the signature made it too long: TC, the question, signed (RFC 8945 5.3)
                org.xbill.DNS.Message tc =
                        new org.xbill.DNS.Message(m.getHeader().getID());
                tc.getHeader().setFlag(org.xbill.DNS.Flags.QR);
                tc.getHeader().setFlag(org.xbill.DNS.Flags.TC);
                tc.addRecord(checked.message().getQuestion(), org.xbill.DNS.Section.QUESTION);
                checked.sign(tc);
                wire = tc.toWire();
            }
            out.writeBytes(wire);
            return true;
        } catch (java.io.IOException e) { // our own answer did not read back: a bug
            metrics.dropped(DnsMetrics.Drop.INTERNAL_ERROR);
            return false;
        } finally {
            answer.release();
        }
    }

    /**
     * A NOTIFY (RFC 1996): its TSIG checked, handed to {@code receiver}, answered with its rcode,
     * the question echoed, signed as it was. Over {@link #NOTIFY_PER_SECOND}, dropped unread.
     */
    private boolean notify(
            NotifyReceiver receiver, TsigKeys keys, byte[] packet, int length, long hi, long lo, ByteBuf out) {
        java.net.InetAddress from =
                new dev.gslb.topology.Address(hi, lo).ipAddress().toInetAddress();
        if (!(receiver.fromPrimary(from) ? primaryNotifyBudget : notifyBudget).take()) {
            metrics.dropped(DnsMetrics.Drop.RATE_LIMITED);
            return false;
        }
        TsigKeys.Checked checked;
        try {
            checked = keys.check(packet, length);
        } catch (java.io.IOException e) {
            metrics.dropped(DnsMetrics.Drop.MALFORMED);
            return false;
        }
        if (checked.error() != Rcode.NOERROR) {
            out.writeBytes(checked.errorAnswer());
            return true;
        }
        org.xbill.DNS.Message query = checked.message();
        org.xbill.DNS.Record question = query.getQuestion();
        org.xbill.DNS.Message answer =
                new org.xbill.DNS.Message(query.getHeader().getID());
        answer.getHeader().setOpcode(org.xbill.DNS.Opcode.NOTIFY);
        answer.getHeader().setFlag(org.xbill.DNS.Flags.QR);
        int rcode;
        if (question == null || question.getType() != Type.SOA) {
            rcode = Rcode.FORMERR;
        } else {
            answer.addRecord(question, org.xbill.DNS.Section.QUESTION);
            rcode = receiver.notified(
                    question.getName(),
                    from,
                    checked.key() == null ? null : checked.key().name());
            answer.getHeader().setFlag(org.xbill.DNS.Flags.AA);
        }
        answer.getHeader().setRcode(rcode);
        checked.sign(answer);
        out.writeBytes(answer.toWire());
        return true;
    }

    /** What the guard leaves to the next stages: nothing, the error answer it set, or the question. */
    private static final int DROPPED = 0;

    private static final int ERROR = 1;
    private static final int QUESTION = 2;

    /** The guard: {@link QueryView}'s verdict becomes a drop (counted here), an error answer, or a question. */
    private int guard(QueryView q, QueryView.Verdict verdict, Reply r) {
        r.clear();
        switch (verdict) {
            case DROP_SHORT, DROP_RESPONSE -> {
                metrics.dropped(DnsMetrics.Drop.NOT_A_QUERY);
                return DROPPED;
            }
            case DROP_OVERSIZE -> {
                metrics.dropped(DnsMetrics.Drop.OVERSIZE);
                return DROPPED;
            }
            case FORMERR -> {
                metrics.dropped(DnsMetrics.Drop.MALFORMED);
                r.error(Rcode.FORMERR, false, false); // a bare header: nothing read is trusted
                return ERROR;
            }
            case NOTIMP -> {
                r.error(Rcode.NOTIMP, q.questionReadable, false);
                return ERROR;
            }
            case BADVERS -> {
                r.error(Rcode.BADVERS, q.questionReadable, true); // answered in EDNS version 0
                return ERROR;
            }
            case BADKEY -> { // signed while this server has no TSIG keys: every key is unknown
                r.error(Rcode.NOTAUTH, q.questionReadable, q.hasOpt);
                r.badKey = true;
                return ERROR;
            }
            default -> {
                return QUESTION;
            }
        }
    }

    /**
     * The lookup: a cached body, else one wide-IP decision ({@link WideIpLookup}) for a wide IP
     * asked by name or reached through a CNAME chain, else REFUSED or a zone's NXDOMAIN for a name
     * plainly not held ({@link Authority#plainNegative}), else a body built by {@link MessageAnswerer}
     * (and cached when it may be). False when the query is dropped (the drop-packet method).
     */
    private boolean lookup(Worker t, long hi, long lo, long nowMillis, Reply r) {
        QueryView q = t.query;
        r.question = true;
        Served s = served;
        boolean addresses = q.qclass == DClass.IN && (q.qtype == Type.A || q.qtype == Type.AAAA || q.qtype == Type.ANY);
        // A wide IP's own name first: its addresses are decided per query and never cached, so
        // asking the cache (a probe of a large table, cold between queries) would only miss.
        WideIp exact = addresses ? s.authority().exactWideIp(q) : null;
        if (exact != null) {
            boolean answered = wideIps.answer(s.authority(), exact, null, q, hi, lo, nowMillis, t.scratch, r);
            return signed(s, q, nowMillis, r, answered);
        }
        AnswerBody body = s.cache().get(q, nowMillis);
        if (body == null && addresses) {
            WideIp wideIp = s.authority().wildcardWideIp(q);
            if (wideIp != null) {
                boolean answered = wideIps.answer(s.authority(), wideIp, null, q, hi, lo, nowMillis, t.scratch, r);
                return signed(s, q, nowMillis, r, answered);
            }
        }
        if (body == null) {
            body = s.authority().plainNegative(q);
        }
        if (body == null) {
            body = s.negatives().get(q, nowMillis);
        }
        if (body == null) {
            MessageAnswerer.Result m = full.answer(s.authority(), q);
            MessageAnswerer.Pending p = m.pending();
            if (p != null) {
                boolean answered = wideIps.answer(s.authority(), p.wideIp(), p, q, hi, lo, nowMillis, t.scratch, r);
                return signed(s, q, nowMillis, r, answered);
            }
            body = m.body();
            if (m.cacheable() && body.refreshAt > nowMillis) { // SERVFAIL over the signing budget is stale at once
                (m.negative() ? s.negatives() : s.cache()).put(q, body);
            }
        }
        r.body(body);
        return true;
    }

    /** {@code answered}; a wide IP's addresses or alias signed first when the query has DO and the zone is signed. */
    private static boolean signed(Served s, QueryView q, long nowMillis, Reply r, boolean answered) {
        if (answered
                && q.dnssecOk
                && (r.kind == Reply.Kind.ADDRESSES || r.kind == Reply.Kind.CNAME)
                && s.authority().signatures() != Signatures.NONE) {
            WideIpLookup.sign(s.authority(), q, nowMillis, r);
        }
        return answered;
    }

    /** The writer: renders the reply whatever its kind. */
    private void write(Worker t, Transport transport, Reply r, long nowMillis, ByteBuf out) {
        AnswerWriter w = t.writer;
        w.begin(out, t.query, transport, r.authoritative, r.rcode, r.question, r.opt, r.cookie);
        w.ecsScope(r.ecsScope);
        switch (r.kind) {
            case BODY -> w.body(r.body);
            case ADDRESSES, CNAME -> {
                if (r.body != null) {
                    w.body(r.body); // the CNAME chain to the wide IP
                }
                if (r.kind == Reply.Kind.CNAME) {
                    w.cname(r);
                } else {
                    w.addresses(r);
                }
            }
            case EMPTY -> {
                if (r.badKey) {
                    w.badKey(nowMillis / 1000);
                }
            }
        }
        w.finish();
        metrics.answered(transport, r.rcode);
    }

    /** The cookie stage: counts the query's COOKIE option and prepares our server cookie for the answer. */
    private void cookies(Worker t, long hi, long lo, long nowMillis, Reply r) {
        r.cookie = cookies != null && t.query.hasClientCookie();
        r.validCookie = r.cookie && cookie(t, hi, lo, nowMillis / 1000);
        r.opt = t.query.hasOpt;
    }

    /**
     * Counts the query's COOKIE option and prepares our server cookie for the answer. True when
     * the client presented a valid server cookie of ours (so it is not spoofed).
     */
    private boolean cookie(Worker t, long hi, long lo, long nowSeconds) {
        QueryView q = t.query;
        boolean withServerCookie = q.cookieLength > ServerCookies.CLIENT_COOKIE;
        boolean valid = withServerCookie && cookies.valid(q.buf, q.cookie, q.cookieLength, hi, lo, nowSeconds);
        metrics.cookie(
                valid
                        ? DnsMetrics.Cookie.VALID
                        : withServerCookie ? DnsMetrics.Cookie.INVALID : DnsMetrics.Cookie.CLIENT_ONLY);
        cookies.write(q.buf, q.cookie, hi, lo, t.writer.serverCookie, 0, nowSeconds);
        return valid;
    }

    /**
     * Response-rate limiting of a UDP answer. True when the answer must not be sent as planned:
     * either nothing is written (dropped), or the slip answer is: BADCOOKIE with a fresh server
     * cookie to a client that sent a cookie (RFC 7873 5.2.3: it retries with it and is then
     * exempt), else an empty answer with TC (a real resolver retries over TCP).
     */
    private boolean limited(Worker t, Transport transport, long hi, long lo, Reply r, ByteBuf out) {
        if (transport == Transport.TCP || r.validCookie || limiter.exempt(hi, lo)) {
            return false;
        }
        int v = limiter.check(hi, lo, r.rateClass);
        if ((v & (ResponseRateLimiter.STARTED | ResponseRateLimiter.ENDED)) != 0 && limitLog.admit()) {
            limitLog.line("rate limit: " + limiter.networkOf(hi, lo)
                    + ((v & ResponseRateLimiter.STARTED) != 0
                            ? " is now limited (over " + limiter.settings().responsesPerSecond()
                                    + " answers/s of one kind)"
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
            w.begin(
                    out,
                    q,
                    transport,
                    false,
                    r.cookie ? BADCOOKIE : Rcode.NOERROR,
                    q.questionReadable,
                    q.hasOpt,
                    r.cookie);
            if (!r.cookie) {
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
