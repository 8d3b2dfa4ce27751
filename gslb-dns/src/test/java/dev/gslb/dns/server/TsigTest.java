package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Shell;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.TSIGRecord;
import org.xbill.DNS.Type;

/**
 * A query signed with TSIG under a key the server does not have (here it has none; with keys the
 * same answer comes from the TSIG check, TransferOutTest) is answered NOTAUTH with an unsigned TSIG record carrying BADKEY, as NSD and
 * BIND answer it (RFC 8945 5.2.1), and a TSIG anywhere but last is FORMERR. Asked with dig, kdig
 * and dnsjava over real sockets.
 */
class TsigTest {
    private static final String SECRET = Base64.getEncoder()
            .encodeToString("a secret no server here holds".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    @AutoClose
    private final ExampleDeployment deployment;

    TsigTest() throws Exception {
        deployment = new ExampleDeployment();
    }

    @Test
    void digWithAnUnknownKeyGetsNotauthAndBadkey() {
        for (String edns : new String[] {"+edns", "+noedns"}) {
            String out = Shell.run(
                    "dig",
                    "+norec",
                    "+tries=1",
                    "+time=5",
                    edns,
                    "-p",
                    port(),
                    "@127.0.0.1",
                    "api.example.com",
                    "A",
                    "-y",
                    "hmac-sha256:nokey:" + SECRET);
            assertThat(out).as(edns).contains("status: NOTAUTH").contains("ANSWER: 0");
            assertThat(out)
                    .as("%s: the TSIG record echoes key and algorithm, fudge 300, no MAC, error BADKEY", edns)
                    .containsPattern("nokey\\.\\s+0\\s+ANY\\s+TSIG\\s+hmac-sha256\\. \\d+ 300 0 \\d+ BADKEY 0")
                    .contains("tsig indicates error");
            assertThat(out).as("the question is echoed, as BIND does").contains(";api.example.com.");
        }
        String out = Shell.run(
                "kdig",
                "+retry=0",
                "+timeout=5",
                "-p",
                port(),
                "@127.0.0.1",
                "+tcp",
                "www.example.com",
                "A",
                "-y",
                "hmac-sha512:other.key:" + SECRET);
        assertThat(out)
                .as("kdig over TCP")
                .contains("status: BADKEY")
                .containsPattern("other\\.key\\.\\s+0\\s+ANY\\s+TSIG\\s+hmac-sha512\\. \\d+ 300 0 \\d+ BADKEY 0");
    }

    @Test
    void dnsjavaSeesAnUnsignedBadkeyOverUdpAndTcp() throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        q.getHeader().setID(0x4b1d);
        TSIG key = new TSIG(TSIG.HMAC_SHA256, "nokey.", SECRET);
        key.apply(q, null); // signs it: the TSIG record is added last
        byte[] wire = q.toWire();
        long before = Instant.now().getEpochSecond();
        for (Message m : new Message[] {udp(wire), tcp(wire)}) {
            assertThat(m.getHeader().getID()).isEqualTo(0x4b1d);
            assertThat(m.getRcode()).isEqualTo(Rcode.NOTAUTH);
            assertThat(m.getHeader().getFlag(Flags.QR)).isTrue();
            assertThat(m.getHeader().getFlag(Flags.AA)).isFalse();
            assertThat(m.getSection(Section.ANSWER)).isEmpty();
            TSIGRecord t = m.getTSIG();
            assertThat(t).as("the last record is TSIG").isNotNull();
            assertThat(t.getName()).isEqualTo(Name.fromString("nokey."));
            assertThat(t.getAlgorithm()).isEqualTo(TSIG.HMAC_SHA256);
            assertThat(t.getError()).isEqualTo(Rcode.BADKEY);
            assertThat(t.getSignature()).as("unsigned: no MAC").isEmpty();
            assertThat(t.getOriginalID()).isEqualTo(0x4b1d);
            assertThat(t.getTimeSigned().getEpochSecond())
                    .as("our time")
                    .isBetween(before - 1, Instant.now().getEpochSecond() + 1);
            assertThat(key.verify(m, m.toWire(), q.getTSIG()))
                    .as("a client holding the key does not take it for a signed answer")
                    .isNotEqualTo(Rcode.NOERROR);
        }
    }

    @Test
    void aTsigThatIsNotTheLastRecordIsFormerr() throws Exception {
        Message signed = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        new TSIG(TSIG.HMAC_SHA256, "nokey.", SECRET).apply(signed, null);
        TSIGRecord tsig = (TSIGRecord)
                new Message(signed.toWire()).getSection(Section.ADDITIONAL).getLast();

        Message beforeOpt = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        beforeOpt.getHeader().setID(0x7001);
        beforeOpt.addRecord(tsig, Section.ADDITIONAL);
        beforeOpt.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
        assertThat(udp(beforeOpt.toWire()).getRcode()).as("TSIG before OPT").isEqualTo(Rcode.FORMERR);

        Message inAuthority =
                Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        inAuthority.getHeader().setID(0x7002);
        inAuthority.addRecord(tsig, Section.AUTHORITY);
        assertThat(udp(inAuthority.toWire()).getRcode()).as("TSIG in authority").isEqualTo(Rcode.FORMERR);

        byte[] w = signed.toWire();
        int rdata = TSIG.HMAC_SHA256.length() + 16 + tsig.getSignature().length;
        byte[] longer = Arrays.copyOf(w, w.length + 1); // one byte more than the TSIG's fields fill
        longer[w.length - rdata - 1]++; // its RDLENGTH says so too
        assertThat(udp(longer).getRcode()).as("TSIG RDATA with bytes left over").isEqualTo(Rcode.FORMERR);

        ByteBuffer compressed = ByteBuffer.allocate(512);
        compressed.put(Arrays.copyOf(beforeOpt.toWire(), 12 + 21)); // header and question "api.example.com. A IN"
        compressed.putShort(10, (short) 1).putShort(6, (short) 0); // ARCOUNT 1: the TSIG alone
        compressed
                .put(new byte[] {5, 'n', 'o', 'k', 'e', 'y', 0})
                .putShort((short) Type.TSIG)
                .putShort((short) DClass.ANY)
                .putInt(0);
        compressed.putShort((short) 18).putShort((short) 0xC00C); // algorithm name: a pointer to the question
        compressed.put(new byte[16]); // time, fudge, no MAC, original ID, error, no other data
        assertThat(udp(Arrays.copyOf(compressed.array(), compressed.position())).getRcode())
                .as("a compressed algorithm name")
                .isEqualTo(Rcode.FORMERR);
    }

    @Test
    void aBadkeyAnswerTooLongFor512BytesIsTruncatedAndWholeOverTcp() throws Exception {
        String label = "k".repeat(60);
        Name longKey = Name.fromString(label + "." + label + "." + label + "." + label + ".");
        Name longAlgorithm = Name.fromString(label + "." + label + "." + label + "." + label + ".");
        Message q =
                Message.newQuery(Record.newRecord(Name.fromString(label + ".wild.example.com."), Type.A, DClass.IN));
        q.getHeader().setID(0x5120);
        q.addRecord(
                new TSIGRecord(
                        longKey,
                        DClass.ANY,
                        0,
                        longAlgorithm,
                        Instant.now(),
                        TSIG.FUDGE,
                        new byte[32],
                        0x5120,
                        0,
                        null),
                Section.ADDITIONAL);
        byte[] wire = q.toWire();
        Message overUdp = udp(wire);
        assertThat(overUdp.getRcode()).isEqualTo(Rcode.NOTAUTH);
        assertThat(overUdp.getHeader().getFlag(Flags.TC))
                .as("%d bytes of names do not fit 512", 2 * 245)
                .isTrue();
        assertThat(overUdp.getTSIG()).isNull();
        Message overTcp = tcp(wire);
        assertThat(overTcp.getHeader().getFlag(Flags.TC)).isFalse();
        assertThat(overTcp.getTSIG().getName()).isEqualTo(longKey);
        assertThat(overTcp.getTSIG().getAlgorithm()).isEqualTo(longAlgorithm);
        assertThat(overTcp.getTSIG().getError()).isEqualTo(Rcode.BADKEY);
    }

    private String port() {
        return Integer.toString(deployment.address().getPort());
    }

    private Message udp(byte[] q) throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(5000);
            s.send(new DatagramPacket(q, q.length, deployment.address()));
            byte[] buf = new byte[4096];
            DatagramPacket reply = new DatagramPacket(buf, buf.length);
            s.receive(reply);
            return new Message(Arrays.copyOf(buf, reply.getLength()));
        }
    }

    private Message tcp(byte[] q) throws Exception {
        try (Socket s = new Socket(
                deployment.address().getAddress(), deployment.address().getPort())) {
            s.setSoTimeout(5000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(q.length);
            out.write(q);
            DataInputStream in = new DataInputStream(s.getInputStream());
            return new Message(in.readNBytes(in.readUnsignedShort()));
        }
    }
}
