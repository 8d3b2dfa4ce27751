package dev.gslb.dns.server;

import static dev.gslb.dns.server.ExampleDeployment.exchange;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.probe.Awaits;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A listener survives whatever one datagram or connection throws, and one that cannot go on is
 * reported (and the last one ends the server). The error is injected where real ones come from:
 * answering, here a load-balancing method that throws an {@link OutOfMemoryError}.
 */
class ListenerSurvivalTest {
    /** A method that fails as a server out of memory would, for every query it decides. */
    private static final LoadBalancingMethod EXPLODING = new LoadBalancingMethod() {
        @Override
        public String name() {
            return "exploding";
        }

        @Override
        public Outcome decide(Candidates candidates, QueryContext query) {
            throw new OutOfMemoryError("injected");
        }
    };

    private static ExampleDeployment deployment() throws Exception {
        DataCenter cnc = new DataCenter("CNC");
        Pool pool = new Pool(
                "boom",
                List.of(new VirtualServer("boom1", InetAddress.ofLiteral("192.0.2.1"), cnc)),
                List.of(EXPLODING),
                1,
                -1,
                List.of());
        WideIp boom = new WideIp(Name.fromString("boom.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
        // one thread: every datagram goes through the one UDP loop, every connection through one event loop
        return new ExampleDeployment(
                ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, ExampleDeployment.authority(List.of(boom)));
    }

    private static byte[] query(String name, int id) throws IOException {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN));
        q.getHeader().setID(id);
        return q.toWire();
    }

    /** Sends one query on a new connection; the answer, or null when the server closed it instead. */
    private static Message tcp(InetSocketAddress to, byte[] q) throws IOException {
        try (Socket s = new Socket(to.getAddress(), to.getPort())) {
            s.setSoTimeout(5000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(q.length);
            out.write(q);
            DataInputStream in = new DataInputStream(s.getInputStream());
            int length = in.read();
            if (length < 0) {
                return null;
            }
            return new Message(in.readNBytes((length << 8) | in.readUnsignedByte()));
        }
    }

    @Test
    void anErrorAnsweringOneDatagramOrConnectionEndsOnlyThatOne() throws Exception {
        try (ExampleDeployment d = deployment();
                DatagramSocket client = new DatagramSocket()) {
            InetSocketAddress to = d.address();
            client.setSoTimeout(300);
            for (int i = 0; i < 100; i++) {
                byte[] boom = query("boom.example.com.", i);
                client.send(new DatagramPacket(boom, boom.length, to));
            }
            Awaits.until(
                    "100 injected errors counted",
                    Duration.ofSeconds(30),
                    () -> d.counter("dns_dropped", "reason", "internal_error") == 100);
            try {
                exchange(client, to, query("boom.example.com.", 1000));
                throw new AssertionError("a query whose answering failed was answered");
            } catch (SocketTimeoutException dropped) {
                // dropped, as it must be
            }
            client.setSoTimeout(5000);
            for (int i = 0; i < 20; i++) {
                assertThat(exchange(client, to, query("www.example.com.", 2000 + i))
                                .getSection(Section.ANSWER))
                        .as("the UDP loop answers after 101 errors")
                        .hasSize(1);
            }

            assertThat(tcp(to, query("boom.example.com.", 3000)))
                    .as("the connection whose query failed is closed")
                    .isNull();
            assertThat(tcp(to, query("www.example.com.", 3001)).getSection(Section.ANSWER))
                    .as("a new connection is answered")
                    .hasSize(1);
            assertThat(d.server.health().failures()).isEmpty();
        }
    }

    @Test
    void aListenerThatCannotGoOnIsReportedAndTheLastOneSaysNothingServes() throws Exception {
        try (ExampleDeployment d = deployment();
                DatagramSocket client = new DatagramSocket()) {
            CountDownLatch nothingServing = new CountDownLatch(1);
            d.server.health().onNothingServing(nothingServing::countDown);
            InetSocketAddress to = d.address();

            BatchedUdpListener udp = d.server.udpListeners().getFirst();
            NativeUdp.close(udp.fd()); // the socket is gone under the loop
            Awaits.until(
                    "the UDP loop reports that it failed",
                    Duration.ofSeconds(30),
                    () -> !d.server.health().failures().isEmpty());
            assertThat(d.server.health().failures())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("UDP on port " + to.getPort() + " stopped: recvmmsg failed");
            assertThat(nothingServing.getCount()).as("TCP still serves").isEqualTo(1);
            assertThat(tcp(to, query("www.example.com.", 1)).getSection(Section.ANSWER))
                    .hasSize(1);

            Channel tcpListener = d.server.channels().stream()
                    .filter(c -> c instanceof ServerChannel)
                    .findFirst()
                    .orElseThrow();
            tcpListener.close().sync();
            assertThat(nothingServing.await(30, TimeUnit.SECONDS))
                    .as("the last listener gone: nothing serves")
                    .isTrue();
            assertThat(d.server.health().failures()).hasSize(2).anyMatch(f -> f.startsWith("TCP on "));
        }
    }
}
