package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.Address;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/** A full TCP table gives way to a new client by closing its idlest connection; idle ones are closed. */
class TcpLimitsTest {
    @Test
    void aFullTableClosesItsIdlestConnectionForANewOneAndIdleOnesTimeOut() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(
                ExampleDeployment.listener(2).withTcpLimits(Duration.ofSeconds(10), Duration.ofSeconds(1), 2, 64),
                dev.gslb.dns.answer.AnswerSettings.DEFAULTS)) {
            var a = d.address();
            try (Socket s1 = new Socket(a.getAddress(), a.getPort());
                    Socket s2 = new Socket(a.getAddress(), a.getPort())) {
                // each answered in turn: both are in the table, and s1 has read nothing for longer
                assertThat(ask(s1, "www.example.com.")).hasSize(1);
                assertThat(ask(s2, "www.example.com.")).hasSize(1);
                try (Socket s3 = new Socket(a.getAddress(), a.getPort())) {
                    s1.setSoTimeout(5000);
                    assertThat(s1.getInputStream().read())
                            .as("the idlest connection closed for the newcomer")
                            .isEqualTo(-1);
                    assertThat(ask(s3, "www.example.com."))
                            .as("the newcomer is answered")
                            .hasSize(1);
                    s2.getOutputStream().write(0); // half of a length prefix, and no more
                    InputStream in = s2.getInputStream();
                    assertThat(in.read())
                            .as("a connection with half a query is closed when it times out")
                            .isEqualTo(-1);
                }
            }
            assertThat(d.counter("dns_dropped", "reason", "tcp_idle_closed")).isEqualTo(1.0);
            assertThat(d.counter("dns_dropped", "reason", "tcp_connection_limit"))
                    .isZero();
        }
    }

    @Test
    void aTableFullOfIdleConnectionsFromManySourcesStillTakesANewClient() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(
                ExampleDeployment.listener(1).withTcpLimits(Duration.ofSeconds(30), Duration.ofSeconds(2), 100, 4),
                dev.gslb.dns.answer.AnswerSettings.DEFAULTS)) {
            InetSocketAddress a = d.address();
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) { // 50 sources, 4 each: twice the table
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress(InetAddress.ofLiteral("127.3." + (i / 4) + ".1"), 0));
                    s.connect(a);
                    idle.add(s);
                }
                try (Socket client = new Socket(a.getAddress(), a.getPort())) {
                    assertThat(ask(client, "www.example.com.")).hasSize(1);
                }
                assertThat(d.counter("dns_dropped", "reason", "tcp_idle_closed"))
                        .as("every connection past the 100th made room by closing an idle one")
                        .isEqualTo(101.0);
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
        }
    }

    /**
     * Each event loop listens on the port itself (SO_REUSEPORT), so no connection is handed from
     * one loop to another; a second server cannot join that port group: it is refused by name.
     */
    @Test
    void everyLoopListensAndASecondServerCannotJoinThePort() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(2)) {
            assertThat(d.server.channels().stream()
                            .filter(c -> c instanceof io.netty.channel.ServerChannel)
                            .count())
                    .as("a TCP listener per loop")
                    .isEqualTo(2);
            InetSocketAddress a = d.address();
            for (int i = 0; i < 50; i++) {
                try (Socket s = new Socket(a.getAddress(), a.getPort())) {
                    assertThat(ask(s, "www.example.com.")).hasSize(1);
                }
            }
            ListenerSettings same = ListenerSettings.DEFAULTS.withAddresses(List.of(a), 2);
            DnsServer second = new DnsServer(same, d.responder, new dev.gslb.dns.answer.DnsMetrics(d.registry));
            org.assertj.core.api.Assertions.assertThatThrownBy(second::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot listen for DNS on TCP " + Address.hostPort(a));
            second.close();
            for (int i = 0; i < 20; i++) {
                try (Socket s = new Socket(a.getAddress(), a.getPort())) {
                    assertThat(ask(s, "www.example.com."))
                            .as("the first server still serves every connection")
                            .hasSize(1);
                }
            }
        }
    }

    private static List<Record> ask(Socket s, String name) throws Exception {
        s.setSoTimeout(5000);
        byte[] q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN))
                .toWire();
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeShort(q.length);
        out.write(q);
        DataInputStream in = new DataInputStream(s.getInputStream());
        return new Message(in.readNBytes(in.readUnsignedShort())).getSection(Section.ANSWER);
    }
}
