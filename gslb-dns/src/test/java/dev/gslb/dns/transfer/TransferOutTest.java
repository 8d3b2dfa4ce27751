package dev.gslb.dns.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.topology.Cidr;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.Type;
import org.xbill.DNS.ZoneTransferIn;

/**
 * Transfers out over real sockets, taken by dnsjava's own client: AXFR of the example zone (its
 * wide IP as a stand-in A record), refused without the key or from outside the ACL, IXFR of one
 * change from the journal, a signed query answered signed, the RFC 8945 errors, and NOTIFY sent
 * (signed) when the serial moves.
 */
class TransferOutTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");
    private static final byte[] SECRET = "a 32-byte secret for the tests!!".getBytes(StandardCharsets.US_ASCII);
    private static final TsigKey KEY = new TsigKey(Name.fromConstantString("xfr."), TSIG.HMAC_SHA256, SECRET);
    private static final TsigKeys KEYS = new TsigKeys(List.of(KEY));

    private static Authority offered(Path zoneFile, List<String> allow, List<Name> keys, List<InetSocketAddress> notify)
            throws Exception {
        Authority example = ExampleDeployment.authority();
        Zone zone = ZoneFile.load(zoneFile, ZONE)
                .withTransfer(
                        new TransferSettings(allow.stream().map(Cidr::parse).toList(), keys, notify));
        return new Authority(List.of(zone), List.copyOf(example.wideIps().values()));
    }

    private static ExampleDeployment serving(Authority authority) throws Exception {
        ExampleDeployment d = new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, authority);
        d.responder.tsigKeys(KEYS);
        d.transfers.update(authority, KEYS);
        return d;
    }

    @Test
    void axfrSignedWithTheKeyGivesTheZoneAndTheWideIpStandIn(@TempDir Path dir) throws Exception {
        Path file = copy(dir, 2026112901, "192.0.2.10");
        try (ExampleDeployment d = serving(offered(file, List.of("127.0.0.0/8"), List.of(KEY.name()), List.of()))) {
            ZoneTransferIn x = ZoneTransferIn.newAXFR(ZONE, d.address(), KEY.tsig());
            x.setTimeout(Duration.ofSeconds(10));
            x.run();
            List<Record> records = x.getAXFR();
            int inFile = ZoneFile.load(file, ZONE).recordCount();
            assertThat(records).as("SOA, every record, the stand-in, SOA").hasSize(inFile + 2);
            assertThat(records.getFirst()).isInstanceOf(SOARecord.class);
            assertThat(records.getLast()).isEqualTo(records.getFirst());
            assertThat(records)
                    .as("the wide IP as its first member, with its TTL")
                    .contains(new ARecord(
                            Name.fromString("www.example.com."),
                            DClass.IN,
                            30,
                            InetAddress.ofLiteral("202.106.83.177")));
            assertThat(records.stream()
                            .filter(r -> r.getName().equals(Name.fromConstantString("www.example.com.")))
                            .findFirst()
                            .orElseThrow()
                            .getTTL())
                    .isEqualTo(30);

            assertThat(first(d, Message.newQuery(Record.newRecord(ZONE, Type.AXFR, DClass.IN)), null)
                            .getRcode())
                    .as("unsigned: the key is required")
                    .isEqualTo(Rcode.REFUSED);
            TsigKey other = new TsigKey(Name.fromConstantString("other."), TSIG.HMAC_SHA256, SECRET);
            Message badKey = first(d, Message.newQuery(Record.newRecord(ZONE, Type.AXFR, DClass.IN)), other);
            assertThat(badKey.getRcode()).isEqualTo(Rcode.NOTAUTH);
            assertThat(badKey.getTSIG().getError()).isEqualTo(Rcode.BADKEY);
            TsigKey forged = new TsigKey(
                    KEY.name(),
                    TSIG.HMAC_SHA256,
                    "not the secret the server holds!".getBytes(StandardCharsets.US_ASCII));
            Message badSig = first(d, Message.newQuery(Record.newRecord(ZONE, Type.AXFR, DClass.IN)), forged);
            assertThat(badSig.getRcode()).isEqualTo(Rcode.NOTAUTH);
            assertThat(badSig.getTSIG().getError()).isEqualTo(Rcode.BADSIG);
            assertThat(badSig.getSection(Section.ANSWER)).isEmpty();
        }
    }

    @Test
    void aSecondaryOutsideTheAclIsRefusedAndAZoneNotOfferedToo(@TempDir Path dir) throws Exception {
        Path file = copy(dir, 2026112901, "192.0.2.10");
        try (ExampleDeployment d = serving(offered(file, List.of("198.18.0.0/15"), List.of(), List.of()))) {
            assertThat(first(d, Message.newQuery(Record.newRecord(ZONE, Type.AXFR, DClass.IN)), null)
                            .getRcode())
                    .as("127.0.0.1 is not in 198.18.0.0/15")
                    .isEqualTo(Rcode.REFUSED);
            assertThat(first(d, Message.newQuery(Record.newRecord(ZONE, Type.AXFR, DClass.IN)), KEY)
                            .getRcode())
                    .as("a key does not stand in for the address")
                    .isEqualTo(Rcode.REFUSED);
            assertThat(first(
                                    d,
                                    Message.newQuery(
                                            Record.newRecord(Name.fromString("example.net."), Type.AXFR, DClass.IN)),
                                    null)
                            .getRcode())
                    .isEqualTo(Rcode.REFUSED);
        }
    }

    @Test
    void ixfrSendsOneChangeFromTheJournalAndTheSoaAloneWhenCurrent(@TempDir Path dir) throws Exception {
        Path file = copy(dir, 2026112901, "192.0.2.10");
        try (ExampleDeployment d = serving(offered(file, List.of("127.0.0.0/8"), List.of(), List.of()))) {
            Authority changed =
                    offered(copy(dir, 2026112902, "192.0.2.12"), List.of("127.0.0.0/8"), List.of(), List.of());
            d.responder.replace(changed);
            d.transfers.update(changed, KEYS);
            assertThat(d.transfers.journaled(ZONE)).isEqualTo(1);

            ZoneTransferIn x = ZoneTransferIn.newIXFR(
                    ZONE,
                    2026112901,
                    false,
                    d.address().getHostString(),
                    d.address().getPort(),
                    null);
            x.setTimeout(Duration.ofSeconds(10));
            x.run();
            assertThat(x.isIXFR())
                    .as("an incremental answer, not the whole zone")
                    .isTrue();
            List<ZoneTransferIn.Delta> deltas = x.getIXFR();
            assertThat(deltas).hasSize(1);
            assertThat(deltas.getFirst().start).isEqualTo(2026112901);
            assertThat(deltas.getFirst().end).isEqualTo(2026112902);
            assertThat(deltas.getFirst().deletes)
                    .hasSize(2)
                    .anyMatch(r -> r.rdataToString().equals("192.0.2.10"));
            assertThat(deltas.getFirst().adds)
                    .hasSize(2)
                    .anyMatch(r -> r.rdataToString().equals("192.0.2.12"));

            ZoneTransferIn current = ZoneTransferIn.newIXFR(
                    ZONE,
                    2026112902,
                    false,
                    d.address().getHostString(),
                    d.address().getPort(),
                    null);
            current.setTimeout(Duration.ofSeconds(10));
            current.run();
            assertThat(current.isCurrent()).as("up to date: the SOA alone").isTrue();

            ZoneTransferIn old = ZoneTransferIn.newIXFR(
                    ZONE,
                    2026000000,
                    false,
                    d.address().getHostString(),
                    d.address().getPort(),
                    null);
            old.setTimeout(Duration.ofSeconds(10));
            old.run();
            assertThat(old.isAXFR())
                    .as("older than the journal: the whole zone")
                    .isTrue();
        }
    }

    @Test
    void aSignedQueryIsAnsweredSignedAndAStaleOneGetsBadtime(@TempDir Path dir) throws Exception {
        Path file = copy(dir, 2026112901, "192.0.2.10");
        try (ExampleDeployment d = serving(offered(file, List.of("127.0.0.0/8"), List.of(), List.of()))) {
            SimpleResolver r = new SimpleResolver(d.address());
            r.setTSIGKey(KEY.tsig());
            r.setTimeout(Duration.ofSeconds(5));
            Message answer =
                    r.send(Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN)));
            assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(answer.isVerified())
                    .as("the answer's TSIG checked by dnsjava")
                    .isTrue();
            assertThat(answer.getSection(Section.ANSWER)).hasSize(2);
            Message wideIp =
                    r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
            assertThat(wideIp.isVerified()).isTrue();
            assertThat(wideIp.getSection(Section.ANSWER)).hasSize(1);

            TSIG skewed = new TSIG(
                    TSIG.HMAC_SHA256,
                    KEY.name(),
                    new javax.crypto.spec.SecretKeySpec(SECRET, "HmacSHA256"),
                    Clock.fixed(Instant.now().minus(Duration.ofHours(1)), ZoneOffset.UTC));
            Message q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
            q.setTSIG(skewed);
            byte[] wire = q.toWire(512);
            try (DatagramSocket s = new DatagramSocket()) {
                s.setSoTimeout(5000);
                Message late = ExampleDeployment.exchange(s, d.address(), wire);
                assertThat(late.getRcode()).isEqualTo(Rcode.NOTAUTH);
                assertThat(late.getTSIG().getError()).isEqualTo(Rcode.BADTIME);
            }
        }
    }

    @Test
    void aNewSerialIsNotifiedSignedToTheSecondaries(@TempDir Path dir) throws Exception {
        try (DatagramSocket secondary =
                new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            secondary.setSoTimeout(10_000);
            InetSocketAddress at = (InetSocketAddress) secondary.getLocalSocketAddress();
            Path file = copy(dir, 2026112901, "192.0.2.10");
            try (Transfers transfers = new Transfers(new Notifier(Duration.ofMillis(200)))) {
                transfers.update(offered(file, List.of(), List.of(KEY.name()), List.of(at)), KEYS);
                Message first = receive(secondary);
                assertThat(first.getHeader().getOpcode()).isEqualTo(Opcode.NOTIFY);
                assertThat(first.getQuestion().getName()).isEqualTo(ZONE);
                assertThat(KEY.tsig().verify(first, first.toWire(), null))
                        .as("signed with the zone's key")
                        .isZero();
                Message again = receive(secondary);
                assertThat(again.getHeader().getID())
                        .as("sent again while unanswered")
                        .isEqualTo(first.getHeader().getID());
                answer(secondary, again);

                transfers.update(
                        offered(copy(dir, 2026112902, "192.0.2.12"), List.of(), List.of(KEY.name()), List.of(at)),
                        KEYS);
                Message next = receive(secondary);
                for (int stale = 0; stale < 5 && serial(next) == 2026112901; stale++) {
                    next = receive(secondary); // a send of the old serial already on its way
                }
                assertThat(serial(next)).isEqualTo(2026112902);
                answer(secondary, next);
            }
        }
    }

    private static long serial(Message notify) {
        return ((SOARecord) notify.getSection(Section.ANSWER).getFirst()).getSerial();
    }

    private static Message receive(DatagramSocket s) throws Exception {
        byte[] buf = new byte[4096];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        s.receive(p);
        Message m = new Message(Arrays.copyOf(buf, p.getLength()));
        lastFrom = p.getSocketAddress();
        return m;
    }

    private static java.net.SocketAddress lastFrom;

    private static void answer(DatagramSocket s, Message notify) throws Exception {
        Message reply = new Message(notify.getHeader().getID());
        reply.getHeader().setOpcode(Opcode.NOTIFY);
        reply.getHeader().setFlag(Flags.QR);
        reply.addRecord(notify.getQuestion(), Section.QUESTION);
        byte[] wire = reply.toWire();
        s.send(new DatagramPacket(wire, wire.length, lastFrom));
    }

    /** The first message of the answer to {@code query} over TCP, signed with {@code key} when given. */
    private static Message first(ExampleDeployment d, Message query, TsigKey key) throws Exception {
        if (key != null) {
            query.setTSIG(key.tsig());
        }
        byte[] wire = query.toWire(65535);
        try (Socket s = new Socket(d.address().getAddress(), d.address().getPort())) {
            s.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(wire.length);
            out.write(wire);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] answer = new byte[in.readUnsignedShort()];
            in.readFully(answer);
            return new Message(answer);
        }
    }

    /** The example zone at {@code serial}, api.example.com's first address {@code api}. */
    static Path copy(Path dir, long serial, String api) throws Exception {
        String text = Files.readString(ExampleDeployment.ZONE)
                .replace("2026112901 ; serial", serial + " ; serial")
                .replace("api         IN A     192.0.2.10", "api         IN A     " + api);
        Path file = dir.resolve("example.com." + serial + ".zone");
        Files.writeString(file, text);
        return file;
    }
}
