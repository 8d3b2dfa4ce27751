package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.server.GslbServer;
import dev.gslb.topology.Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.GenericEDNSOption;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/** The source's chain through the real server, with the embedded default (CNC and TEL). */
class MethodChainEndToEndTest {
    private static GslbServer server;
    private static String admin;

    @BeforeAll
    static void start() throws Exception {
        server = Isolated.started();
        admin = Isolated.adminUrl(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The source's record: CNC 189850 us, TEL 57209 us, measured now. */
    static void sourceRecord(String ldns) {
        long now = System.currentTimeMillis();
        Address k = Address.parse(ldns);
        server.proximity().recordPath(k, Path.of("CNC", 189850, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
        server.proximity().recordPath(k, Path.of("TEL", 57209, 10000, 0, ProbeProtocol.TCP, now, "gslb-tel"));
    }

    static Message ask(String from, String name, OPTRecord opt) throws Exception {
        SimpleResolver r = new SimpleResolver(server.dns().boundAddresses().getFirst());
        r.setLocalAddress(new InetSocketAddress(InetAddress.ofLiteral(from), 0));
        r.setTimeout(Duration.ofSeconds(2));
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN));
        if (opt != null) {
            q.addRecord(opt, Section.ADDITIONAL);
        }
        return r.send(q);
    }

    static List<String> addresses(Message m) {
        return m.getSection(Section.ANSWER).stream()
                .filter(r -> r.getType() == Type.A)
                .map(Record::rdataToString)
                .toList();
    }

    @Test
    void theSourceRecordAnswersTelByRtt() throws Exception {
        sourceRecord("127.0.0.61");
        assertThat(addresses(ask("127.0.0.61", "www.example.com.", null))).containsExactly("219.17.66.100");

        sourceRecord("61.136.178.229");
        TopologyCommandTest.Run explained =
                TopologyCommandTest.gslb("resolve", "www.example.com", "--ldns", "61.136.178.229", "--admin", admin);
        assertThat(explained.out())
                .contains(
                        "CNC: rtt 189850 us",
                        "TEL: rtt 57209 us",
                        "decided by lowest-round-trip-time (preferred tier of pool www)",
                        "answer: A 219.17.66.100 (vs2-tel in TEL), TTL 30");
    }

    @Test
    void anLdnsInUnicomSpaceWithNoPathsIsPlacedByTopology() throws Exception {
        Message m = ask(
                "127.0.0.62",
                "www.example.com.",
                new OPTRecord(
                        1232, 0, 0, 0, List.of(new ClientSubnetOption(24, InetAddress.ofLiteral("202.106.1.0")))));
        assertThat(addresses(m)).containsExactly("202.106.83.177");
        ClientSubnetOption echoed = (ClientSubnetOption)
                m.getOPT().getOptions(EDNSOption.Code.CLIENT_SUBNET).getFirst();
        assertThat(echoed.getSourcePrefixLength()).isEqualTo(24);
        assertThat(echoed.getScopePrefixLength())
                .as("the unicom prefix that matched")
                .isEqualTo(18);

        TopologyCommandTest.Run explained =
                TopologyCommandTest.gslb("resolve", "www.example.com", "--ldns", "202.106.1.1", "--admin", admin);
        assertThat(explained.out())
                .contains("no proximity entry", "region unicom", "decided by topology (alternate tier");
    }

    @Test
    void anUnknownLdnsGetsTheFirstMemberInOrder() throws Exception {
        assertThat(addresses(ask("127.0.0.63", "www.example.com.", null))).containsExactly("202.106.83.177");
        TopologyCommandTest.Run explained =
                TopologyCommandTest.gslb("resolve", "www.example.com", "--ldns", "198.18.3.3", "--admin", admin);
        assertThat(explained.out())
                .contains("matches no topology prefix", "decided by global-availability (fallback tier");
    }

    @Test
    void staticAnswersWithEcsHaveScopeZeroAndMalformedEcsGetsFormerr() throws Exception {
        Message m = ask(
                "127.0.0.64",
                "api.example.com.",
                new OPTRecord(
                        1232, 0, 0, 0, List.of(new ClientSubnetOption(24, InetAddress.ofLiteral("202.106.1.0")))));
        assertThat(((ClientSubnetOption) m.getOPT()
                                .getOptions(EDNSOption.Code.CLIENT_SUBNET)
                                .getFirst())
                        .getScopePrefixLength())
                .isZero();
        // family 1, source /24, scope 0, but 4 address bytes with a host bit set beyond the prefix
        byte[] bad = {0, 1, 24, 0, (byte) 202, 106, 1, 7};
        assertThat(rcodeOf(bad)).isEqualTo(Rcode.FORMERR);
        byte[] scoped = {0, 1, 24, 8, (byte) 202, 106, 1}; // a query must carry scope 0
        assertThat(rcodeOf(scoped)).isEqualTo(Rcode.FORMERR);
        byte[] family = {0, 9, 24, 0, (byte) 202, 106, 1}; // no such address family
        assertThat(rcodeOf(family)).isEqualTo(Rcode.FORMERR);
    }

    /** Sends a wide-IP query with this raw ECS option over UDP and returns the answer's rcode. */
    static int rcodeOf(byte[] ecsOption) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN));
        q.addRecord(
                new OPTRecord(1232, 0, 0, 0, List.of(new GenericEDNSOption(EDNSOption.Code.CLIENT_SUBNET, ecsOption))),
                Section.ADDITIONAL);
        byte[] wire = q.toWire();
        try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
            s.setSoTimeout(2000);
            s.send(new java.net.DatagramPacket(
                    wire, wire.length, server.dns().boundAddresses().getFirst()));
            java.net.DatagramPacket p = new java.net.DatagramPacket(new byte[512], 512);
            s.receive(p);
            assertThat(p.getData()[0]).isEqualTo(wire[0]);
            return p.getData()[3] & 0x0F;
        }
    }
}
