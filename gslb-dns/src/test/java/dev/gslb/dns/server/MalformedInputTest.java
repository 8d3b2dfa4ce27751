package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/** Garbage on the wire gets FORMERR or silence, and the listeners keep serving. */
class MalformedInputTest {
    private static ExampleDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        deployment = new ExampleDeployment();
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    private static byte[] exchangeUdp(DatagramSocket s, byte[] packet) throws Exception {
        s.send(new DatagramPacket(packet, packet.length, deployment.address()));
        byte[] buf = new byte[65535];
        DatagramPacket reply = new DatagramPacket(buf, buf.length);
        try {
            s.receive(reply);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return java.util.Arrays.copyOf(buf, reply.getLength());
    }

    private static byte[] validQuery(int id) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        q.getHeader().setID(id);
        return q.toWire();
    }

    @Test
    void malformedQueriesGetFormerrWithTheirId() throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(2000);
            byte[] q = validQuery(0x1234);
            byte[] truncated = java.util.Arrays.copyOf(q, q.length - 3); // question cut short
            byte[] reply = exchangeUdp(s, truncated);
            assertThat(reply).isNotNull();
            Message m = new Message(reply);
            assertThat(m.getHeader().getID()).isEqualTo(0x1234);
            assertThat(m.getRcode()).isEqualTo(Rcode.FORMERR);

            byte[] twoQuestions = validQuery(0x2345);
            twoQuestions[5] = 2; // QDCOUNT 2 with one question present
            assertThat(new Message(exchangeUdp(s, twoQuestions)).getRcode()).isEqualTo(Rcode.FORMERR);

            byte[] response = validQuery(0x3456);
            response[2] |= (byte) 0x80; // QR set: never answer a response
            s.setSoTimeout(500);
            assertThat(exchangeUdp(s, response)).isNull();
            assertThat(exchangeUdp(s, new byte[] {1, 2, 3})).isNull();
        }
    }

    @Test
    void randomBytesNeverStopTheListeners() throws Exception {
        Random random = new Random(42);
        try (DatagramSocket s = new DatagramSocket()) {
            for (int i = 0; i < 3000; i++) {
                byte[] junk = new byte[random.nextInt(600)];
                random.nextBytes(junk);
                if (random.nextBoolean() && junk.length > 12) {
                    System.arraycopy(validQuery(i), 0, junk, 0, 12); // plausible header, junk body
                    junk[2] &= 0x7F;
                }
                s.send(new DatagramPacket(junk, junk.length, deployment.address()));
            }
            s.setSoTimeout(3000);
            byte[] reply;
            do { // skip answers to the junk still in flight
                reply = exchangeUdp(s, validQuery(0x7777));
            } while (reply != null && new Message(reply).getHeader().getID() != 0x7777);
            assertThat(reply).isNotNull();
            assertThat(new Message(reply).getSection(1)).isNotEmpty();
        }
        try (Socket tcp = new Socket(
                deployment.address().getAddress(), deployment.address().getPort())) {
            tcp.setSoTimeout(3000);
            DataOutputStream out = new DataOutputStream(tcp.getOutputStream());
            byte[] junk = new byte[40];
            random.nextBytes(junk);
            junk[2] &= 0x7F;
            out.writeShort(junk.length);
            out.write(junk);
            byte[] q = validQuery(0x4242);
            out.writeShort(q.length);
            out.write(q);
            DataInputStream in = new DataInputStream(tcp.getInputStream());
            Message first = new Message(in.readNBytes(in.readUnsignedShort()));
            Message second = new Message(in.readNBytes(in.readUnsignedShort()));
            assertThat(first.getRcode())
                    .isIn(Rcode.FORMERR, Rcode.NOTIMP, Rcode.REFUSED, Rcode.NOERROR, Rcode.NXDOMAIN);
            assertThat(second.getHeader().getID()).isEqualTo(0x4242);
            assertThat(second.getRcode()).isEqualTo(Rcode.NOERROR);
        }
    }

    /** The parse guard's refusals, each on the raw bytes, before any full parse. */
    @Test
    void theParseGuardRefusesEachShapeWithFormerrOrSilence() throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(2000);
            byte[] q = validQuery(0x0101);
            byte[] noQuestion = java.util.Arrays.copyOf(q, 12);
            noQuestion[5] = 0;
            assertFormerr(s, noQuestion, "QDCOUNT 0 and no cookie");

            byte[] answerRecord = java.util.Arrays.copyOf(q, q.length);
            answerRecord[7] = 1;
            assertFormerr(s, answerRecord, "ANCOUNT 1 in a query");

            byte[] compressed = java.util.Arrays.copyOf(q, 12 + 2 + 4);
            compressed[12] = (byte) 0xC0; // the question's name a pointer (to itself)
            compressed[13] = 12;
            compressed[15] = 1;
            compressed[17] = 1;
            assertFormerr(s, compressed, "a compressed question name");

            byte[] trailing = java.util.Arrays.copyOf(q, q.length + 3);
            assertFormerr(s, trailing, "bytes after the last record");

            byte[] loop = withAdditional(q, new byte[] {(byte) 0xC0, (byte) q.length, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0});
            assertFormerr(s, loop, "an additional record whose owner points at itself (a loop)");

            byte[] opt = {0, 0, 41, 4, (byte) 0xD0, 0, 0, 0, 0, 0, 0};
            byte[] twoOpts = withAdditional(withAdditional(q, opt), opt);
            assertFormerr(s, twoOpts, "two OPT records");

            byte[] badCookie = withAdditional(q, new byte[] {
                0, 0, 41, 4, (byte) 0xD0, 0, 0, 0, 0, 0, 16, 0, 10, 0, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
            });
            assertFormerr(s, badCookie, "a 12-byte COOKIE option (RFC 7873 5.2.2)");

            byte[] oversize = new byte[5000];
            System.arraycopy(q, 0, oversize, 0, q.length);
            double before = deployment.counter("dns_dropped", "reason", "oversize");
            s.setSoTimeout(500);
            assertThat(exchangeUdp(s, oversize))
                    .as("a 5,000-byte query is dropped unread")
                    .isNull();
            assertThat(deployment.counter("dns_dropped", "reason", "oversize")).isEqualTo(before + 1);
            s.setSoTimeout(2000);

            byte[] cookieOnly = withAdditional(
                    noQuestion,
                    new byte[] {0, 0, 41, 4, (byte) 0xD0, 0, 0, 0, 0, 0, 12, 0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8});
            Message m = new Message(exchangeUdp(s, cookieOnly));
            assertThat(m.getRcode()).as("a cookie-only query (RFC 7873 5.4)").isEqualTo(Rcode.NOERROR);
            assertThat(m.getSection(0)).isEmpty();
            byte[] cookie = m.getOPT()
                    .getOptions(org.xbill.DNS.EDNSOption.Code.COOKIE)
                    .getFirst()
                    .toWire();
            assertThat(cookie.length)
                    .as("code, length, client cookie and a 16-byte server cookie")
                    .isEqualTo(4 + 24);
        }
    }

    private static void assertFormerr(DatagramSocket s, byte[] packet, String what) throws Exception {
        byte[] reply = exchangeUdp(s, packet);
        assertThat(reply).as(what).isNotNull();
        Message m = new Message(reply);
        assertThat(m.getRcode()).as(what).isEqualTo(Rcode.FORMERR);
        assertThat(m.getHeader().getID()).as(what).isEqualTo(((packet[0] & 0xFF) << 8) | (packet[1] & 0xFF));
    }

    /** {@code q} with one more additional record (raw bytes). */
    private static byte[] withAdditional(byte[] q, byte[] record) {
        byte[] out = java.util.Arrays.copyOf(q, q.length + record.length);
        System.arraycopy(record, 0, out, q.length, record.length);
        out[11]++;
        return out;
    }
}
