package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * dnstap from a real server, read by real readers: BIND's {@code dnstap-read} (bind9-dnsutils)
 * reads the file a server wrote, and fstrm's {@code fstrm_dump} (fstrm-bin) shows the decision in
 * its frames; {@code fstrm_capture} (fstrm-bin)
 * is the reader on a Unix socket, goes away and comes back, and the server finds it again.
 */
class DnstapLogTest {
    static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void queriesAndAnswersWithTheirDecisionReachAFileTheReadersRead() throws Exception {
        Path file = dir.resolve("tap.fstrm");
        Path config = config("dnstap: {file: tap.fstrm, identity: tap-test}\n");
        int udpPort;
        int tcpPort;
        try (GslbServer s = new GslbServer(ConfigLoader.load(config))) {
            s.start();
            InetSocketAddress dns = s.dns().boundAddresses().getFirst();
            try (DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                udpPort = udp.getLocalPort();
                Message answer = overUdp(udp, dns, "www.example.com.");
                assertThat(answer.getSection(org.xbill.DNS.Section.ANSWER).toString())
                        .contains("127.0.1.2"); // TEL, by the topology record (the alternate method)
            }
            try (Socket tcp = new Socket(dns.getAddress(), dns.getPort())) {
                tcpPort = tcp.getLocalPort();
                overTcp(tcp, "api.example.com.");
            }
        } // closed: the stream is ended (STOP)
        String read = run("dnstap-read", "-y", file.toString());
        assertThat(count(read, "type: AUTH_QUERY")).isEqualTo(2);
        assertThat(count(read, "type: AUTH_RESPONSE")).isEqualTo(2);
        assertThat(read)
                .contains("identity: tap-test", "query_address: \"127.0.0.1\"")
                .contains("socket_protocol: UDP", "query_port: " + udpPort, "'www.example.com. IN A'")
                .contains("socket_protocol: TCP", "query_port: " + tcpPort, "'api.example.com. IN A'")
                .contains("'www.example.com. 30 IN A 127.0.1.2'");
        // No packaged reader prints dnstap's extra field; fstrm's own dump shows each frame's bytes, where
        // it stands as field 3 (tag 0x1a), its length, its text.
        String extra =
                "wideip=www.example.com pool=www tier=alternate method=topology outcome=picked server=tel dc=TEL";
        String frames = run("fstrm_dump", file.toString());
        assertThat(frames).contains("\\x1a" + (char) extra.length() + extra);
        assertThat(count(frames, "wideip="))
                .as("static answers carry no decision")
                .isEqualTo(2);
    }

    @Test
    void aReaderOnTheSocketThatGoesAwayAndComesBackIsFoundAgain() throws Exception {
        Path socket = dir.resolve("tap.sock");
        Path config = config("dnstap: {socket: tap.sock, messages: [auth-query]}\n");
        Path first = dir.resolve("first.fstrm");
        Path second = dir.resolve("second.fstrm");
        Process reader;
        try (GslbServer s = new GslbServer(ConfigLoader.load(config));
                DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.start();
            InetSocketAddress dns = s.dns().boundAddresses().getFirst();
            overUdp(udp, dns, "before.example.com.");
            Awaits.until("a query without a reader counted as dropped", LIMIT, () -> dropped(s) >= 1);

            reader = capture(socket, first);
            Awaits.until("the server finds the reader", LIMIT, () -> {
                overUdp(udp, dns, "first.example.com.");
                return written(s) >= 1;
            });
            stop(reader); // the reader goes away

            double before = written(s);
            reader = capture(socket, second);
            Awaits.until("the server finds the new reader", LIMIT, () -> {
                overUdp(udp, dns, "second.example.com.");
                return written(s) > before;
            });
        } // the server's stop ends the stream: STOP, and the reader's FINISH
        stop(reader);
        assertThat(run("dnstap-read", "-y", first.toString()))
                .contains("'first.example.com. IN A'")
                .doesNotContain("before.example.com")
                .doesNotContain("AUTH_RESPONSE");
        assertThat(run("dnstap-read", "-y", second.toString()))
                .contains("'second.example.com. IN A'")
                .doesNotContain("first.example.com");
    }

    private Path config(String dnstap) throws IOException {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path config = dir.resolve("gslb.yaml");
        String topology = "topology: {records: [{cidr: 127.0.0.0/8, datacenter: TEL, score: 100}]}\n";
        Files.writeString(config, LoopbackConfig.local("tap", "CNC") + LoopbackConfig.shared(topology + dnstap));
        return config;
    }

    private static double written(GslbServer s) {
        return s.metric("dnstap_messages", "type", "auth-query");
    }

    private static double dropped(GslbServer s) {
        return s.metric("dnstap_dropped", "reason", "no-reader");
    }

    /** fstrm's own reader, listening on {@code socket} and writing what it gets to {@code out}. */
    private static Process capture(Path socket, Path out) throws IOException, InterruptedException {
        Files.deleteIfExists(socket);
        Process p = new ProcessBuilder(
                        "fstrm_capture", "-t", "protobuf:dnstap.Dnstap", "-u", socket.toString(), "-w", out.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Awaits.until("fstrm_capture listens", LIMIT, () -> Files.exists(socket));
        return p;
    }

    /** SIGTERM: fstrm_capture closes its file whole and exits. */
    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("fstrm_capture exits").isTrue();
    }

    /** The answer to a query for {@code name} sent from {@code udp}. */
    private static Message overUdp(DatagramSocket udp, InetSocketAddress dns, String name) {
        try {
            byte[] q = query(name);
            udp.send(new DatagramPacket(q, q.length, dns));
            byte[] in = new byte[4096];
            DatagramPacket p = new DatagramPacket(in, in.length);
            udp.setSoTimeout(5000);
            udp.receive(p);
            return new Message(java.util.Arrays.copyOf(in, p.getLength()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Message overTcp(Socket tcp, String name) throws IOException {
        byte[] q = query(name);
        DataOutputStream out = new DataOutputStream(tcp.getOutputStream());
        out.writeShort(q.length);
        out.write(q);
        out.flush();
        DataInputStream in = new DataInputStream(tcp.getInputStream());
        byte[] a = new byte[in.readUnsignedShort()];
        in.readFully(a);
        return new Message(a);
    }

    private static byte[] query(String name) throws IOException {
        return Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN))
                .toWire();
    }

    /** A reader's output; fails with what it said when it exits other than 0. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("%s said: %s", String.join(" ", command), out)
                .isZero();
        return out;
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }
}
