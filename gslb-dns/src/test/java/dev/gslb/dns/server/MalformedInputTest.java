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
        try (Socket tcp = new Socket(deployment.address().getAddress(), deployment.address().getPort())) {
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
            assertThat(first.getRcode()).isIn(Rcode.FORMERR, Rcode.NOTIMP, Rcode.REFUSED, Rcode.NOERROR, Rcode.NXDOMAIN);
            assertThat(second.getHeader().getID()).isEqualTo(0x4242);
            assertThat(second.getRcode()).isEqualTo(Rcode.NOERROR);
        }
    }
}
