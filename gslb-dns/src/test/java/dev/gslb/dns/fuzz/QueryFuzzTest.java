package dev.gslb.dns.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.Transport;
import dev.gslb.dns.server.ExampleDeployment;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.xbill.DNS.Message;
import org.xbill.DNS.OPTRecord;

/**
 * The parse guard and the answer writer under arbitrary packets (first byte: 0 UDP, else TCP; the
 * rest: the packet). Checked on every input: nothing escapes and nothing fails inside (the
 * internal-error counter stays at zero), a query with QR set is never answered, an answer parses,
 * echoes the ID and the question as asked, and fits the client's limit (512 bytes over UDP
 * without EDNS, min(its size, 1232) with it). The server has a TSIG key, so signed packets take
 * the TSIG check. Seeds: src/test/resources/.../QueryFuzzTestInputs.
 */
class QueryFuzzTest {
    private static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();
    private static final Responder RESPONDER = responder();
    private static final ByteBuf OUT = Unpooled.buffer(65_537);

    private static Responder responder() {
        try {
            Responder r = new Responder( // signed: a query with DO takes the signing paths, one without the others
                    ExampleDeployment.authority(java.util.List.of(), dev.gslb.dns.zone.DnssecSettings.DEFAULTS),
                    ExampleDeployment.resolver(REGISTRY),
                    new InstanceIdentity("fuzz", "CNC"),
                    new DnsMetrics(REGISTRY),
                    AnswerSettings.DEFAULTS);
            r.keys(dev.gslb.dns.dnssec.TestKeys.ring(org.xbill.DNS.Name.fromString("example.com.")));
            r.tsigKeys(TransferFuzzTest.KEYS); // a signed query takes the TSIG check and the signed answer
            return r;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void everyPacketGetsAWellFormedAnswerWithinItsLimitOrNone(byte[] input) throws Exception {
        if (input.length == 0) {
            return;
        }
        Transport transport = input[0] == 0 ? Transport.UDP : Transport.TCP;
        byte[] packet = Arrays.copyOfRange(input, 1, input.length);
        OUT.clear();
        double errors = REGISTRY.get("dns_dropped")
                .tag("reason", "internal_error")
                .counter()
                .count();
        boolean answered = RESPONDER.respond(
                packet,
                packet.length,
                transport,
                dev.gslb.topology.Cidr.hiOf(InetAddress.getLoopbackAddress()),
                dev.gslb.topology.Cidr.loOf(InetAddress.getLoopbackAddress()),
                OUT);
        if (REGISTRY.get("dns_dropped")
                        .tag("reason", "internal_error")
                        .counter()
                        .count()
                > errors) {
            throw new AssertionError("an exception inside the responder (counted as internal_error)");
        }
        if (!answered) {
            if (OUT.isReadable()) {
                throw new AssertionError("dropped, but bytes were written");
            }
            return;
        }
        if (packet.length < 12 || (packet[2] & 0x80) != 0) {
            throw new AssertionError("answered a packet that is not a query (short, or QR set)");
        }
        byte[] answer = new byte[OUT.readableBytes()];
        OUT.getBytes(0, answer);
        Message m = new Message(answer); // must parse: an IOException here fails the test
        if (answer[0] != packet[0] || answer[1] != packet[1]) {
            throw new AssertionError("the ID is not echoed");
        }
        int limit = transport == Transport.TCP ? 65_535 : udpLimit(packet);
        if (answer.length > limit) {
            throw new AssertionError("answer of " + answer.length + " bytes over the client's limit of " + limit);
        }
        if (m.getHeader().getCount(0) == 1) {
            int end = questionEnd(answer);
            if (!Arrays.equals(answer, 12, end, packet, 12, end)) {
                throw new AssertionError("the question is not echoed as it was asked");
            }
        }
    }

    /**
     * The client's UDP limit as an independent parser (dnsjava) reads the query: 512 unless it has
     * a readable OPT. Where dnsjava refuses an option's data that a server ignores (a keepalive of
     * 8 bytes), or stops reading a query with TC set before its OPT (two fuzz findings), the OPT
     * record's size field is read by walking the records.
     */
    private static int udpLimit(byte[] packet) {
        int payload;
        try {
            OPTRecord opt = new Message(packet).getOPT();
            payload = opt == null ? optPayload(packet) : opt.getPayloadSize(); // a TC query: dnsjava stops early
        } catch (Exception unreadable) {
            payload = optPayload(packet);
        }
        return payload <= 0 ? 512 : Math.max(512, Math.min(payload, AnswerSettings.DEFAULT_EDNS_UDP_SIZE));
    }

    /** The OPT record's payload size (its class field), found by walking the records; 0 when there is none. */
    private static int optPayload(byte[] b) {
        try {
            int p = 12;
            for (int q = 0; q < u16(b, 4); q++) {
                p = skipName(b, p) + 4;
            }
            int records = u16(b, 6) + u16(b, 8) + u16(b, 10);
            for (int r = 0; r < records; r++) {
                p = skipName(b, p);
                int type = u16(b, p);
                if (type == 41) {
                    return u16(b, p + 2);
                }
                p += 10 + u16(b, p + 8);
            }
            return 0;
        } catch (ArrayIndexOutOfBoundsException cutShort) {
            return 0;
        }
    }

    private static int skipName(byte[] b, int p) {
        for (int labels = 0; labels < 128; labels++) {
            int len = b[p] & 0xFF;
            if (len == 0) {
                return p + 1;
            }
            if ((len & 0xC0) == 0xC0) {
                return p + 2;
            }
            p += len + 1;
        }
        throw new ArrayIndexOutOfBoundsException("too many labels");
    }

    private static int u16(byte[] b, int p) {
        return (b[p] & 0xFF) << 8 | (b[p + 1] & 0xFF);
    }

    /** The end of the (uncompressed) question at offset 12 of an answer. */
    private static int questionEnd(byte[] answer) {
        int p = 12;
        while (answer[p] != 0) {
            p += (answer[p] & 0xFF) + 1;
        }
        return p + 5;
    }
}
