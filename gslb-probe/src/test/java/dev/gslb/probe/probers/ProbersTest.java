package dev.gslb.probe.probers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.DroppingNamespace;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import dev.gslb.probe.Unbound;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each prober against real endpoints: unbound, closed ports, a listening port, a black hole. */
class ProbersTest {
    static final InetAddress ANY = InetAddress.ofLiteral("0.0.0.0");
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofMillis(500);

    private static Unbound unbound;
    private static int unboundPort;
    private static DroppingNamespace blackHole;

    @BeforeAll
    static void start() throws Exception {
        unbound = new Unbound(Files.createTempDirectory("unbound"), """
                do-not-query-localhost: yes
                local-zone: "." static
                module-config: "iterator"
                """);
        unboundPort = unbound.port;
        Awaits.until(
                "unbound answering on port " + unboundPort,
                Duration.ofSeconds(30),
                () -> DnsProber.dot(ANY, unboundPort).sample(LOOPBACK, TIMEOUT).replied());
        blackHole = new DroppingNamespace("gslbt-probe", 91);
    }

    @AfterAll
    static void stop() {
        if (unbound != null) {
            unbound.close();
        }
        if (blackHole != null) {
            blackHole.close();
        }
    }

    static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    @Test
    void dnsDotAndDnsRevGetAnswersFromARealResolver() {
        assertThat(unbound.process.isAlive()).as("unbound runs").isTrue();
        for (Prober p : List.of(DnsProber.dot(ANY, unboundPort), DnsProber.rev(ANY, unboundPort))) {
            Sample s = p.sample(LOOPBACK, TIMEOUT);
            assertThat(s.replied()).as(p.protocol().label()).isTrue();
            assertThat(s.rttMicros()).isPositive();
        }
    }

    @Test
    void dnsRevAsksForTheLdnsOwnAddress() throws Exception {
        byte[] q = DnsProber.rev(ANY, 53).query(InetAddress.ofLiteral("61.136.178.229"));
        org.xbill.DNS.Message m = new org.xbill.DNS.Message(q);
        assertThat(m.getQuestion().getName().toString()).isEqualTo("229.178.136.61.in-addr.arpa.");
        assertThat(m.getQuestion().getType()).isEqualTo(org.xbill.DNS.Type.PTR);
        byte[] dot = DnsProber.dot(ANY, 53).query(LOOPBACK);
        org.xbill.DNS.Record question = new org.xbill.DNS.Message(dot).getQuestion();
        assertThat(question.getName()).isEqualTo(org.xbill.DNS.Name.root);
        assertThat(question.getType()).isEqualTo(org.xbill.DNS.Type.NS);
    }

    @Test
    void aUdpPortWithNothingListeningRepliesWithPortUnreachable() throws Exception {
        int closed = freeUdpPort();
        assertThat(new UdpProber(ANY, closed).sample(LOOPBACK, TIMEOUT).replied())
                .isTrue();
        assertThat(DnsProber.dot(ANY, closed).sample(LOOPBACK, TIMEOUT).replied())
                .as("an ICMP error is a reply")
                .isTrue();
    }

    @Test
    void aClosedTcpPortRepliesWithReset() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            closed = s.getLocalPort();
        }
        assertThat(new TcpProber(ANY, closed).sample(LOOPBACK, TIMEOUT).replied())
                .isTrue();
        try (ServerSocket open = new ServerSocket(0, 1, LOOPBACK)) {
            Thread.ofVirtual().start(() -> {
                try (Socket ignored = open.accept()) {
                    // accepted
                } catch (IOException e) {
                    // closed
                }
            });
            assertThat(new TcpProber(ANY, open.getLocalPort())
                            .sample(LOOPBACK, TIMEOUT)
                            .replied())
                    .isTrue();
        }
    }

    @Test
    void icmpEchoIsAnsweredWithTheReplyTtl() {
        try (IcmpProber icmp = new IcmpProber(ANY)) {
            assertThat(icmp.available()).as("root may open a raw socket").isTrue();
            Sample s = icmp.sample(LOOPBACK, TIMEOUT);
            assertThat(s.replied()).isTrue();
            assertThat(s.replyTtl()).as("TTL read from the raw reply").isEqualTo(64);
            assertThat(icmp.sample(InetAddress.ofLiteral("::1"), TIMEOUT).replied())
                    .as("IPv6 is left to the others")
                    .isFalse();
        }
    }

    @Test
    void aPingRejectedByTheLdnsItselfProvesThePath() {
        try (DroppingNamespace rejecting = new DroppingNamespace("gslbt-rej", 92)
                        .rule("icmp type echo-request reject with icmpx type admin-prohibited");
                IcmpProber icmp = new IcmpProber(ANY)) {
            Sample s = icmp.sample(rejecting.address, TIMEOUT);
            assertThat(s.replied())
                    .as("an ICMP admin-prohibited from the LDNS is a packet back from it")
                    .isTrue();
            assertThat(s.replyTtl()).isEqualTo(64);
        }
    }

    @Test
    void anAddressWhoseTrafficIsDroppedNeverReplies() {
        try (IcmpProber icmp = new IcmpProber(ANY)) {
            for (Prober p : List.of(
                    DnsProber.dot(ANY, 53),
                    DnsProber.rev(ANY, 53),
                    new UdpProber(ANY, 53),
                    new TcpProber(ANY, 53),
                    icmp)) {
                Sample s = p.sample(blackHole.address, Duration.ofMillis(300));
                assertThat(s.replied())
                        .as(p.protocol().label() + " to a dropping host")
                        .isFalse();
            }
            assertThat(icmp.sample(blackHole.hostSide, TIMEOUT).replied())
                    .as("the veth itself works")
                    .isTrue();
        }
    }

    @Test
    void probesLeaveFromTheConfiguredSourceAddress() throws Exception {
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            server.setSoTimeout(2000);
            Thread t = Thread.ofVirtual()
                    .start(() -> new UdpProber(InetAddress.ofLiteral("127.0.0.7"), server.getLocalPort())
                            .sample(LOOPBACK, Duration.ofMillis(200)));
            java.net.DatagramPacket p = new java.net.DatagramPacket(new byte[64], 64);
            server.receive(p);
            assertThat(p.getAddress().getHostAddress()).isEqualTo("127.0.0.7");
            t.join();
        }
    }

    /**
     * A round's samples to one target share one socket (a socket costs more system calls than
     * the probe), but a sample that got no reply gives its socket up, so a reply that comes late
     * is never taken for the next sample's.
     */
    @Test
    void aRoundKeepsOneSocketUntilASampleGoesUnanswered() throws Exception {
        List<Integer> ports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (DatagramSocket echo = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            Thread.ofVirtual().start(() -> {
                byte[] buf = new byte[512];
                try {
                    for (; ; ) {
                        java.net.DatagramPacket p = new java.net.DatagramPacket(buf, buf.length);
                        echo.receive(p);
                        ports.add(p.getPort());
                        buf[2] |= (byte) 0x80; // QR: a DNS prober takes it as the answer
                        echo.send(new java.net.DatagramPacket(buf, p.getLength(), p.getSocketAddress()));
                    }
                } catch (IOException closed) {
                    // done
                }
            });
            for (Prober p : List.of(DnsProber.dot(ANY, echo.getLocalPort()), new UdpProber(ANY, echo.getLocalPort()))) {
                ports.clear();
                try (Prober.Series round = p.series(LOOPBACK)) {
                    for (int i = 0; i < 3; i++) {
                        assertThat(round.sample(TIMEOUT).replied()).isTrue();
                    }
                }
                assertThat(java.util.Set.copyOf(ports))
                        .as(p.protocol().label() + ": one source port")
                        .hasSize(1);
            }
        }
        try (dev.gslb.probe.DelayingResponder late =
                        new dev.gslb.probe.DelayingResponder(LOOPBACK).delay(LOOPBACK, Duration.ofMillis(300));
                Prober.Series round = new UdpProber(ANY, late.port()).series(LOOPBACK)) {
            assertThat(round.sample(Duration.ofMillis(200)).replied())
                    .as("300 ms late")
                    .isFalse();
            assertThat(round.sample(Duration.ofMillis(200)).replied())
                    .as("the first one's reply, 100 ms into this wait, is not this one's")
                    .isFalse();
            Sample third = round.sample(Duration.ofSeconds(2));
            assertThat(third.replied()).isTrue();
            assertThat(third.rttMicros()).as("its own reply, 300 ms late").isGreaterThanOrEqualTo(300_000);
        }
    }
}
