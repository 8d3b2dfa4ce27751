package dev.gslb.dns.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.zone.SecondarySettings;
import dev.gslb.dns.zone.Zone;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A primary that misbehaves, scripted on a loopback socket: a transfer past the record bound, one
 * that never ends, an IXFR that deletes what the zone does not hold, a serial that goes back. Each
 * is refused with its reason and the zone in service is the one before. A NOTIFY flood is taken
 * at most 100 a second and makes a handful of refreshes. The copy a zone keeps is served after a
 * restart, before any transfer.
 */
class HostilePrimaryTest {
    private static final Name ZONE = Name.fromConstantString("example.net.");

    /** A primary answering each transfer request with the messages {@code script} gives, {@code pause} apart. */
    static final class ScriptedPrimary implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<Message> requests = new CopyOnWriteArrayList<>();
        volatile Function<Message, List<Message>> script;
        volatile Duration pause = Duration.ZERO;

        ScriptedPrimary(Function<Message, List<Message>> script) throws IOException {
            this.script = script;
            Thread.ofVirtual().start(this::serve);
        }

        InetSocketAddress address() {
            return (InetSocketAddress) socket.getLocalSocketAddress();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    Socket accepted = socket.accept();
                    Thread.ofVirtual().start(() -> answer(accepted));
                } catch (IOException e) {
                    // closed: the test ended
                }
            }
        }

        private void answer(Socket accepted) {
            {
                try (Socket s = accepted) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    for (; ; ) { // queries on this connection (an IXFR refused is asked again as AXFR)
                        byte[] q = new byte[in.readUnsignedShort()];
                        in.readFully(q);
                        Message query = new Message(q);
                        requests.add(query);
                        for (Message m : script.apply(query)) {
                            m.getHeader().setID(query.getHeader().getID());
                            byte[] wire = m.toWire(65535);
                            out.writeShort(wire.length);
                            out.write(wire);
                            out.flush();
                            Thread.sleep(pause.toMillis()); // kept: the slow primary under test
                        }
                    }
                } catch (IOException | InterruptedException e) {
                    // the secondary hung up, or the test ended
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static SOARecord soa(long serial) {
        return new SOARecord(
                ZONE,
                DClass.IN,
                300,
                Name.fromConstantString("ns1.example.net."),
                Name.fromConstantString("hostmaster.example.net."),
                serial,
                3600,
                600,
                604800,
                300);
    }

    static Record a(String host, String address) {
        return new ARecord(
                Name.fromConstantString(host + ".example.net."), DClass.IN, 300, InetAddress.ofLiteral(address));
    }

    /** The zone at {@code serial}: SOA, NS, and {@code hosts} A records, as one AXFR message. */
    static List<Message> axfr(Message q, long serial, int hosts) {
        List<Message> out = new ArrayList<>();
        Message m = answer(q);
        m.addRecord(soa(serial), Section.ANSWER);
        m.addRecord(new NSRecord(ZONE, DClass.IN, 300, Name.fromConstantString("ns1.example.net.")), Section.ANSWER);
        m.addRecord(a("ns1", "198.18.0.53"), Section.ANSWER);
        for (int i = 0; i < hosts; i++) {
            if (m.getSection(Section.ANSWER).size() >= 500) {
                out.add(m);
                m = answer(q);
            }
            m.addRecord(a("host-" + i, "198.18.1." + (i % 250)), Section.ANSWER);
        }
        m.addRecord(soa(serial), Section.ANSWER);
        out.add(m);
        return out;
    }

    static Message answer(Message q) {
        Message m = new Message();
        m.getHeader().setFlag(Flags.QR);
        m.getHeader().setFlag(Flags.AA);
        m.addRecord(q.getQuestion(), Section.QUESTION);
        return m;
    }

    /** The default bounds, with refreshes as often as a second (the tests' SOAs ask for that). */
    private static final SecondaryZone.Limits FAST =
            new SecondaryZone.Limits(1_000_000, Duration.ofMinutes(10), Duration.ofSeconds(1));

    private static SecondaryZone secondary(
            ScriptedPrimary p, Path copy, SecondaryZone.Limits limits, List<Zone> published) {
        return new SecondaryZone(
                ZONE,
                new SecondarySettings(List.of(p.address()), null),
                null,
                copy,
                limits,
                Clock.systemUTC(),
                published::add,
                List.of(Name.fromConstantString("www.example.net.")));
    }

    /** Tells {@code z} to refresh, waits for it to fail, and checks the zone in service is still serial 10. */
    private static void refused(SecondaryZone z, String reason) throws InterruptedException {
        long before = z.failures();
        z.notified();
        await("refused: " + reason, () -> z.failures() > before);
        assertThat(z.lastProblem()).contains(reason);
        assertThat(z.held().soa().getSerial()).as("the zone in service").isEqualTo(10);
    }

    private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out: " + what);
            }
            Thread.sleep(20); // kept: the zone's own thread works at its pace
        }
    }

    @Test
    void eachBadTransferIsRefusedWithItsReasonAndTheZoneStays(@TempDir Path dir) throws Exception {
        try (ScriptedPrimary p = new ScriptedPrimary(q -> axfr(q, 10, 5))) {
            List<Zone> published = new CopyOnWriteArrayList<>();
            try (SecondaryZone z = secondary(
                    p,
                    dir.resolve("example.net.zone"),
                    new SecondaryZone.Limits(1000, Duration.ofSeconds(2), Duration.ofSeconds(1)),
                    published)) {
                await("the first copy", () -> !z.held().expired());
                assertThat(z.held().soa().getSerial()).isEqualTo(10);

                p.script = q -> axfr(q, 11, 5000); // past the bound of 1,000 records
                refused(z, "more than 1000 records");

                p.script = q -> axfr(q, 12, 2000).subList(0, 1); // 500 records, then nothing more
                p.pause = Duration.ofSeconds(5);
                long start = System.nanoTime();
                refused(z, "");
                assertThat((System.nanoTime() - start) / 1e9)
                        .as("ended at the 2 s bound")
                        .isLessThan(4.5);
                p.pause = Duration.ZERO;

                p.script = q -> { // an IXFR deleting a record the zone never held; then an AXFR, of a lower serial
                    if (q.getQuestion().getType() == Type.AXFR) {
                        return axfr(q, 9, 5);
                    }
                    Message m = answer(q);
                    m.addRecord(soa(13), Section.ANSWER);
                    m.addRecord(soa(10), Section.ANSWER);
                    m.addRecord(a("nothere", "198.18.9.9"), Section.ANSWER);
                    m.addRecord(soa(13), Section.ANSWER);
                    m.addRecord(a("new", "198.18.9.10"), Section.ANSWER);
                    m.addRecord(soa(13), Section.ANSWER);
                    return List.of(m);
                };
                int asked = p.requests.size();
                refused(z, "lower than ours");
                assertThat(p.requests.subList(asked, p.requests.size()))
                        .extracting(m -> m.getQuestion().getType())
                        .as("IXFR asked, once a copy is held; the whole zone when its changes did not fit")
                        .containsExactly(Type.IXFR, Type.AXFR);

                p.script = q -> { // IXFR not implemented; the AXFR asked then has a lower serial
                    if (q.getQuestion().getType() == Type.IXFR) {
                        Message m = answer(q);
                        m.getHeader().setRcode(org.xbill.DNS.Rcode.NOTIMP);
                        return List.of(m);
                    }
                    return axfr(q, 9, 5);
                };
                refused(z, "lower than ours");
                assertThat(published).as("only the first copy was published").hasSize(1);

                p.script = q -> { // the primary puts a CNAME where the wide IP www.example.net is
                    Message m = answer(q);
                    m.addRecord(soa(13), Section.ANSWER);
                    m.addRecord(
                            new NSRecord(ZONE, DClass.IN, 300, Name.fromConstantString("ns1.example.net.")),
                            Section.ANSWER);
                    m.addRecord(a("ns1", "198.18.0.53"), Section.ANSWER);
                    m.addRecord(
                            new org.xbill.DNS.CNAMERecord(
                                    Name.fromConstantString("www.example.net."),
                                    DClass.IN,
                                    300,
                                    Name.fromConstantString("elsewhere.example.org.")),
                            Section.ANSWER);
                    m.addRecord(soa(13), Section.ANSWER);
                    return List.of(m);
                };
                refused(z, "also has a CNAME");

                p.script = q -> axfr(q, 14, 5);
                z.notified();
                await("a good one taken", () -> z.held().soa().getSerial() == 14);
                assertThat(z.lastProblem()).isNull();
            }
            // a restart serves the copy kept, before any transfer (the primary now refuses all)
            p.script = q -> List.of();
            try (SecondaryZone again = secondary(p, dir.resolve("example.net.zone"), FAST, new ArrayList<>())) {
                assertThat(again.held().expired()).isFalse();
                assertThat(again.held().soa().getSerial()).isEqualTo(14);
            }
        }
    }

    @Test
    void aNotifyFloodMakesAFewRefreshes(@TempDir Path dir) throws Exception {
        try (ScriptedPrimary p = new ScriptedPrimary(q -> q.getQuestion().getType() == Type.IXFR
                ? List.of(withSoa(answer(q), 10)) // current: the SOA alone
                : axfr(q, 10, 5))) {
            Authority example = ExampleDeployment.authority();
            Zone stand = Zone.placeholder(
                    ZONE,
                    new SecondarySettings(
                            List.of(new InetSocketAddress(
                                    InetAddress.getLoopbackAddress(),
                                    p.address().getPort())),
                            null));
            Authority authority = new Authority(
                    List.of(example.zones().all().getFirst(), stand),
                    List.copyOf(example.wideIps().values()));
            try (ExampleDeployment d =
                            new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, authority);
                    SecondaryZones zones = new SecondaryZones(dir, Clock.systemUTC(), z -> {})) {
                zones.configure(authority, dev.gslb.dns.tsig.TsigKeys.NONE);
                d.responder.notifies(zones);
                await("the first copy", () -> zones.taken(Type.AXFR) == 1);
                Message notify = new Message();
                notify.getHeader().setOpcode(Opcode.NOTIFY);
                notify.getHeader().setFlag(Flags.AA);
                notify.addRecord(Record.newRecord(ZONE, Type.SOA, DClass.IN), Section.QUESTION);
                byte[] wire = notify.toWire();
                int sent = 20_000;
                int answered = 0;
                long start = System.nanoTime();
                long lastAnswer = start;
                try (DatagramSocket s = new DatagramSocket()) {
                    for (int i = 0; i < sent; i++) {
                        s.send(new DatagramPacket(wire, wire.length, d.address()));
                    }
                    // the answers say how many were taken; the kernel may drop some of the flood
                    // itself, so what the server refused is counted against what it answered
                    s.setSoTimeout(1000);
                    byte[] in = new byte[512];
                    try {
                        while (true) {
                            s.receive(new DatagramPacket(in, in.length));
                            answered++;
                            lastAnswer = System.nanoTime();
                        }
                    } catch (java.net.SocketTimeoutException e) {
                        // quiet for a second: the flood is over
                    }
                }
                Thread.sleep(500); // kept: the refreshes the flood made, if any, finish
                int asked = p.requests.size();
                double limited = d.counter("dns_dropped", "reason", "rate_limited");
                double seconds = (lastAnswer - start) / 1e9;
                System.out.printf(
                        "NOTIFY flood: %d sent, %d answered in %.2f s, %.0f dropped over the rate, %d transfer requests made%n",
                        sent, answered, seconds, limited, asked);
                assertThat(answered)
                        .as("NOTIFY taken 100 a second, after a burst of 100")
                        .isLessThanOrEqualTo(100 + (int) Math.ceil(100 * seconds) + 1);
                assertThat(limited).as("the rest dropped and counted").isGreaterThan(0);
                assertThat(asked).as("refreshes coalesce").isLessThan(400);
            }
        }
    }

    @Test
    void aZoneNotRefreshedForItsExpireIsAnsweredServfailUntilATransfer(@TempDir Path dir) throws Exception {
        SOARecord shortLived = new SOARecord(
                ZONE,
                DClass.IN,
                300,
                Name.fromConstantString("ns1.example.net."),
                Name.fromConstantString("hostmaster.example.net."),
                20,
                1,
                1,
                2,
                300); // refresh 1, retry 1, expire 2 s
        try (ScriptedPrimary p = new ScriptedPrimary(q -> {
            Message m = answer(q);
            m.addRecord(shortLived, Section.ANSWER);
            m.addRecord(
                    new NSRecord(ZONE, DClass.IN, 300, Name.fromConstantString("ns1.example.net.")), Section.ANSWER);
            m.addRecord(a("ns1", "198.18.0.53"), Section.ANSWER);
            m.addRecord(shortLived, Section.ANSWER);
            return List.of(m);
        })) {
            List<Zone> published = new CopyOnWriteArrayList<>();
            try (SecondaryZone z = secondary(p, null, FAST, published)) {
                await("the first copy", () -> !z.held().expired());
                p.script = q -> List.of(); // the primary stops answering
                await("expired", () -> z.held().expired());
                assertThat(published.getLast().expired())
                        .as("the expired zone was published")
                        .isTrue();
                assertThat(z.lastProblem()).isNotNull();
                p.script = q -> axfr(q, 21, 1);
                await("held again", () -> !z.held().expired());
                assertThat(z.held().soa().getSerial()).isEqualTo(21);
            }
        }
    }

    @Test
    void aZoneNameCannotPutItsCopyOutsideTheStateFolder() throws Exception {
        assertThat(SecondaryZones.copyName(Name.fromString("Example.NET."))).isEqualTo("example.net.zone");
        // labels may hold '/': "/etc/x.example." would resolve to an absolute path, "a/./b" to a subfolder
        String hostile = SecondaryZones.copyName(Name.fromString("/etc/x.example."));
        assertThat(hostile).doesNotContain("/").isEqualTo("%2Fetc%2Fx.example.zone");
        assertThat(SecondaryZones.copyName(Name.fromString("a/./b.example."))).isEqualTo("a%2F.%2Fb.example.zone");
        assertThat(Path.of("/state/secondary").resolve(hostile).getParent()).isEqualTo(Path.of("/state/secondary"));
    }

    private static Message withSoa(Message m, long serial) {
        m.addRecord(soa(serial), Section.ANSWER);
        return m;
    }
}
