package dev.gslb.dns.answer;

import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * Turns one query packet into one answer packet. The common shapes take a fast path that writes
 * bytes directly (a cached static answer, or a wide-IP address); everything else goes through
 * {@link MessageAnswerer}. Never throws for any input: a bad packet gets FORMERR or is dropped.
 */
public final class Responder {
    /** The EDNS UDP size we advertise and cap answers at (DNS flag day 2020). */
    public static final int DEFAULT_UDP_CAP = 1232;
    private static final int CACHE_CAPACITY = 100_000;

    private record Served(Authority authority, ResponseCache cache) {}

    private final WideIpResolver resolver;
    private final MessageAnswerer full;
    private final DnsMetrics metrics;
    private final int udpCap;
    private final ThreadLocal<QueryView> views = ThreadLocal.withInitial(QueryView::new);
    private final ThreadLocal<WideIpResolver.Scratch> scratch = ThreadLocal.withInitial(WideIpResolver.Scratch::new);
    private volatile Served served;

    public Responder(Authority authority, WideIpResolver resolver, InstanceIdentity identity, DnsMetrics metrics,
                     int udpCap) {
        this.resolver = resolver;
        this.full = new MessageAnswerer(resolver, identity, udpCap);
        this.metrics = metrics;
        this.udpCap = udpCap;
        replace(authority);
    }

    /** Swaps in new zones and wide IPs; queries in flight finish on the old ones. */
    public void replace(Authority authority) {
        served = new Served(authority, new ResponseCache(CACHE_CAPACITY));
    }

    public Authority authority() {
        return served.authority();
    }

    /**
     * Writes the answer to {@code query[0, length)} into {@code out}.
     *
     * @return false when the packet must be dropped without an answer
     */
    public boolean respond(byte[] query, int length, Transport transport, InetAddress client, ByteBuf out) {
        Served s = served;
        try {
            QueryView v = views.get();
            if (v.read(query, length) && v.qclass == 1 && (!v.hasOpt || v.ednsVersion == 0)) {
                ResponseCache.Key key = ResponseCache.key(query, length, v.qnameEnd, transport);
                byte[] cached = s.cache().get(key);
                if (cached != null) {
                    writeCached(cached, v, out);
                    metrics.answered(transport, cached[3] & 0xF);
                    return true;
                }
                if ((v.qtype == Type.A || v.qtype == Type.AAAA) && v.optionsLength == 0) {
                    WideIp wideIp = s.authority().wideIp(WireName.of(v.buf, QueryView.HEADER, v.qnameEnd));
                    if (wideIp != null) {
                        WideIpResolver.Scratch sc = scratch.get();
                        sc.query.set(client, v.qtype, System.currentTimeMillis());
                        WideIpResolver.Result r = resolver.resolve(wideIp, sc);
                        if (writeWideIp(r, v, out)) {
                            metrics.answered(transport, Rcode.NOERROR);
                            return true;
                        }
                        return slow(s, query, length, transport, client, out, null, r);
                    }
                }
                return slow(s, query, length, transport, client, out, key, null);
            }
            return slow(s, query, length, transport, client, out, null, null);
        } catch (RuntimeException e) {
            metrics.dropped(DnsMetrics.Drop.INTERNAL_ERROR);
            out.clear();
            return false;
        }
    }

    private boolean slow(Served s, byte[] query, int length, Transport transport, InetAddress client, ByteBuf out,
                         ResponseCache.Key key, WideIpResolver.Result decided) {
        MessageAnswerer.Result r = full.answer(s.authority(), query, length, transport, client, scratch.get(), decided);
        if (r.wire() == null) {
            metrics.dropped(r.rcode() == MessageAnswerer.DROPPED_BY_POLICY ? DnsMetrics.Drop.POLICY
                    : DnsMetrics.Drop.NOT_A_QUERY);
            return false;
        }
        if (key != null && r.cacheable() && (r.rcode() == Rcode.NOERROR)) {
            s.cache().put(key, r.wire());
        }
        if (r.rcode() == Rcode.FORMERR) {
            metrics.dropped(DnsMetrics.Drop.MALFORMED);
        }
        out.writeBytes(r.wire());
        metrics.answered(transport, r.rcode());
        return true;
    }

    /** The cached answer with this query's ID and the question's letter case. */
    private static void writeCached(byte[] cached, QueryView v, ByteBuf out) {
        int start = out.writerIndex();
        out.writeBytes(cached);
        out.setByte(start, v.buf[0]);
        out.setByte(start + 1, v.buf[1]);
        out.setBytes(start + QueryView.HEADER, v.buf, QueryView.HEADER, v.qnameEnd - QueryView.HEADER);
    }

    /**
     * Writes a decided wide-IP answer straight into {@code out}: the query's header and question,
     * the address records with owners pointing at the question (C00C), and OPT if the query had
     * one. False when the outcome needs the full path (failure behaviour, return-to-dns, drop).
     */
    private boolean writeWideIp(WideIpResolver.Result r, QueryView v, ByteBuf out) {
        int answers;
        if (r.outcome() == Outcome.PICKED) {
            answers = r.count();
        } else if (r.outcome() == Outcome.FALLBACK_IP) {
            answers = 1;
        } else {
            return false;
        }
        byte[] q = v.buf;
        out.writeBytes(q, 0, 2);
        out.writeByte(0x84 | (q[2] & 0x01)); // QR, AA, RD copied
        out.writeByte(q[3] & 0x10); // CD copied, RCODE NOERROR
        out.writeShort(1);
        out.writeShort(answers);
        out.writeShort(0);
        out.writeShort(v.hasOpt ? 1 : 0);
        out.writeBytes(q, QueryView.HEADER, v.questionEnd - QueryView.HEADER);
        for (int i = 0; i < answers; i++) {
            byte[] addr = r.outcome() == Outcome.PICKED ? r.answer(i).addressBytes() : r.fallback().getAddress();
            out.writeShort(0xC00C);
            out.writeShort(v.qtype);
            out.writeShort(1);
            out.writeInt((int) r.ttl());
            out.writeShort(addr.length);
            out.writeBytes(addr);
        }
        if (v.hasOpt) {
            out.writeByte(0);
            out.writeShort(QueryView.TYPE_OPT);
            out.writeShort(udpCap);
            out.writeByte(0); // extended rcode
            out.writeByte(0); // version
            out.writeByte(v.dnssecOk ? 0x80 : 0);
            out.writeByte(0);
            out.writeShort(0);
        }
        return true;
    }
}
