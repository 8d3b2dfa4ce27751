package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.ExtendedFlags;
import org.xbill.DNS.Flags;
import org.xbill.DNS.GenericEDNSOption;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

/** Every point of DNS correctness, asked over real UDP and TCP sockets with dnsjava. */
class AuthoritativeServerTest {
    enum Via {
        UDP,
        TCP
    }

    private static ExampleDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        deployment = new ExampleDeployment();
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    static Message ask(Via via, Message query) throws Exception {
        InetSocketAddress a = deployment.address();
        SimpleResolver r = new SimpleResolver(a);
        r.setTCP(via == Via.TCP);
        r.setIgnoreTruncation(true);
        r.setTimeout(Duration.ofSeconds(3));
        return r.send(query);
    }

    static Message ask(Via via, String name, int type) throws Exception {
        return ask(via, Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
    }

    static List<String> rdata(Message m, int section) {
        return m.getSection(section).stream().map(Record::rdataToString).collect(Collectors.toList());
    }

    static List<Integer> types(Message m, int section) {
        return m.getSection(section).stream().map(Record::getType).collect(Collectors.toList());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void answersEachRecordTypeAuthoritatively(Via via) throws Exception {
        record Case(String name, int type, String expected) {}
        List<Case> cases = List.of(
                new Case("api.example.com.", Type.A, "192.0.2.10"),
                new Case("api.example.com.", Type.AAAA, "2001:db8:0:0:0:0:0:10"),
                new Case("example.com.", Type.MX, "10 mail.example.com."),
                new Case("example.com.", Type.TXT, "\"v=spf1 mx -all\""),
                new Case("example.com.", Type.NS, "ns1.example.com."),
                new Case(
                        "example.com.",
                        Type.SOA,
                        "ns1.example.com. hostmaster.example.com. 2026112901 3600 900 1209600 300"),
                new Case("_sip._udp.example.com.", Type.SRV, "10 60 5060 api.example.com."),
                new Case("ptr.example.com.", Type.PTR, "api.example.com."),
                new Case("example.com.", Type.CAA, "0 issue \"letsencrypt.org\""),
                new Case("ftp.example.com.", Type.CNAME, "api.example.com."));
        for (Case c : cases) {
            Message m = ask(via, c.name, c.type);
            assertThat(m.getRcode()).as(c.name).isEqualTo(Rcode.NOERROR);
            assertThat(m.getHeader().getFlag(Flags.AA)).as(c.name + " AA").isTrue();
            assertThat(m.getHeader().getFlag(Flags.QR)).isTrue();
            assertThat(rdata(m, Section.ANSWER))
                    .as(c.name + " " + Type.string(c.type))
                    .contains(c.expected);
            assertThat(m.getSection(Section.ANSWER)).allMatch(r -> r.getType() == c.type);
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void additionalSectionCarriesInZoneAddresses(Via via) throws Exception {
        Message mx = ask(via, "example.com.", Type.MX);
        assertThat(rdata(mx, Section.ADDITIONAL)).contains("192.0.2.25", "2001:db8:0:0:0:0:0:25");
        Message ns = ask(via, "example.com.", Type.NS);
        assertThat(rdata(ns, Section.ADDITIONAL)).contains("202.106.83.1", "219.17.66.1");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void followsCnameChainsInsideTheZone(Via via) throws Exception {
        Message m = ask(via, "docs.example.com.", Type.A);
        assertThat(types(m, Section.ANSWER)).containsExactly(Type.CNAME, Type.CNAME, Type.A, Type.A);
        assertThat(rdata(m, Section.ANSWER)).contains("ftp.example.com.", "api.example.com.", "192.0.2.10");
        Message out = ask(via, "outside.example.com.", Type.A);
        assertThat(out.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(rdata(out, Section.ANSWER)).containsExactly("www.example.net.");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void cnameIntoTheWideIpIsAnsweredByTheWideIp(Via via) throws Exception {
        Message m = ask(via, "shop.example.com.", Type.A);
        assertThat(types(m, Section.ANSWER)).containsExactly(Type.CNAME, Type.A);
        assertThat(rdata(m, Section.ANSWER)).containsExactly("www.example.com.", "202.106.83.177");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void nxdomainAndNodataCarryTheSoa(Via via) throws Exception {
        Message nx = ask(via, "nope.example.com.", Type.A);
        assertThat(nx.getRcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(nx.getHeader().getFlag(Flags.AA)).isTrue();
        assertThat(nx.getSection(Section.ANSWER)).isEmpty();
        assertThat(types(nx, Section.AUTHORITY)).containsExactly(Type.SOA);
        assertThat(nx.getSection(Section.AUTHORITY).getFirst().getTTL())
                .as("RFC 2308 negative TTL")
                .isEqualTo(300);
        Record soa = nx.getSection(Section.AUTHORITY).getFirst();
        for (String name : List.of("x.example.com.", "A.Deeper.NOPE.example.com.", "nope2.example.com.")) {
            Message other = ask(via, name, Type.AAAA); // the zone's one NXDOMAIN body, whatever the name
            assertThat(other.getRcode()).as(name).isEqualTo(Rcode.NXDOMAIN);
            assertThat(other.getQuestion().getName()).as(name).hasToString(name);
            assertThat(other.getSection(Section.AUTHORITY)).as(name).containsExactly(soa);
            assertThat(other.getSection(Section.AUTHORITY).getFirst().getTTL()).isEqualTo(300);
        }

        for (String name : List.of("api.example.com.", "empty.nonterminal.example.com.")) {
            Message nodata = ask(via, name, Type.MX);
            assertThat(nodata.getRcode()).as(name).isEqualTo(Rcode.NOERROR);
            assertThat(nodata.getSection(Section.ANSWER)).as(name).isEmpty();
            assertThat(types(nodata, Section.AUTHORITY)).as(name).containsExactly(Type.SOA);
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void refersDelegationsWithGlue(Via via) throws Exception {
        for (String name : List.of("sub.example.com.", "host.deep.sub.example.com.")) {
            Message m = ask(via, name, Type.A);
            assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(m.getHeader().getFlag(Flags.AA))
                    .as("a referral is not authoritative")
                    .isFalse();
            assertThat(m.getSection(Section.ANSWER)).isEmpty();
            assertThat(rdata(m, Section.AUTHORITY))
                    .containsExactlyInAnyOrder("ns1.sub.example.com.", "ns.elsewhere.net.");
            assertThat(rdata(m, Section.ADDITIONAL)).contains("192.0.2.53", "2001:db8:0:0:0:0:0:53");
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void synthesisesWildcards(Via via) throws Exception {
        Message m = ask(via, "anything.wild.example.com.", Type.A);
        assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(m.getSection(Section.ANSWER)).singleElement().satisfies(r -> {
            assertThat(r.getName()).isEqualTo(Name.fromString("anything.wild.example.com."));
            assertThat(r.rdataToString()).isEqualTo("192.0.2.99");
        });
        Message deeper = ask(via, "a.b.wild.example.com.", Type.TXT);
        assertThat(rdata(deeper, Section.ANSWER)).containsExactly("\"wildcard\"");
        Message nodata = ask(via, "x.wild.example.com.", Type.MX);
        assertThat(nodata.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(nodata.getSection(Section.ANSWER)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void refusesNamesOutsideServedZones(Via via) throws Exception {
        Message m = ask(via, "www.example.org.", Type.A);
        assertThat(m.getRcode()).isEqualTo(Rcode.REFUSED);
        assertThat(m.getHeader().getFlag(Flags.AA)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void answersTheWideIpInGlobalAvailabilityOrder(Via via) throws Exception {
        Message m = ask(via, "www.example.com.", Type.A);
        assertThat(m.getHeader().getFlag(Flags.AA)).isTrue();
        assertThat(m.getSection(Section.ANSWER)).singleElement().satisfies(r -> {
            assertThat(r.rdataToString()).isEqualTo("202.106.83.177");
            assertThat(r.getTTL()).isEqualTo(30);
        });
        Message aaaa = ask(via, "www.example.com.", Type.AAAA);
        assertThat(aaaa.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(aaaa.getSection(Section.ANSWER)).isEmpty();
        assertThat(types(aaaa, Section.AUTHORITY)).containsExactly(Type.SOA);
        Message mx = ask(via, "www.example.com.", Type.MX);
        assertThat(mx.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(mx.getSection(Section.ANSWER)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void preservesQuestionCaseOnFirstAndCachedAnswers(Via via) throws Exception {
        for (String name : List.of("ApI.ExAmPlE.cOm.", "aPi.EXAMPLE.com.", "ApI.ExAmPlE.cOm.", "WwW.ExAmPlE.CoM.")) {
            Message m = ask(via, name, Type.A);
            assertThat(m.getQuestion().getName().toString()).isEqualTo(name);
            assertThat(m.getSection(Section.ANSWER)).isNotEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void answersAnyMinimally(Via via) throws Exception {
        Message m = ask(via, "example.com.", Type.ANY);
        assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(m.getSection(Section.ANSWER)).isNotEmpty();
        assertThat(m.getSection(Section.ANSWER).stream().map(Record::getType).distinct())
                .hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void edns0AdvertisesTheCapAndRefusesNewerVersions(Via via) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        q.addRecord(new OPTRecord(4096, 0, 0, ExtendedFlags.DO), Section.ADDITIONAL);
        Message m = ask(via, q);
        assertThat(m.getOPT()).isNotNull();
        assertThat(m.getOPT().getPayloadSize()).isEqualTo(1232);
        assertThat(m.getOPT().getVersion()).isZero();
        assertThat(m.getOPT().getFlags() & ExtendedFlags.DO)
                .as("DO copied (RFC 3225)")
                .isNotZero();

        Message v1 = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        v1.addRecord(new OPTRecord(1232, 0, 1, 0), Section.ADDITIONAL);
        Message bad = ask(via, v1);
        assertThat(bad.getRcode()).isEqualTo(Rcode.BADVERS);
        assertThat(bad.getOPT().getVersion()).isZero();
        assertThat(bad.getSection(Section.ANSWER)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void nsidAndChaosNameTheInstance(Via via) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN));
        q.addRecord(
                new OPTRecord(1232, 0, 0, 0, List.of(new GenericEDNSOption(EDNSOption.Code.NSID, new byte[0]))),
                Section.ADDITIONAL);
        Message m = ask(via, q);
        List<EDNSOption> nsid = m.getOPT().getOptions(EDNSOption.Code.NSID);
        assertThat(nsid).hasSize(1);
        byte[] option = nsid.getFirst().toWire(); // code, length, then the data
        assertThat(new String(option, 4, option.length - 4, StandardCharsets.US_ASCII))
                .isEqualTo(ExampleDeployment.INSTANCE);

        for (String name : List.of("id.server.", "hostname.bind.")) {
            Message c = ask(via, Message.newQuery(Record.newRecord(Name.fromString(name), Type.TXT, DClass.CH)));
            assertThat(c.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(((TXTRecord) c.getSection(Section.ANSWER).getFirst()).getStrings())
                    .containsExactly(ExampleDeployment.INSTANCE);
        }
        Message other =
                ask(via, Message.newQuery(Record.newRecord(Name.fromString("secret.bind."), Type.TXT, DClass.CH)));
        assertThat(other.getRcode()).isEqualTo(Rcode.REFUSED);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void unsupportedOpcodesGetNotimp(Via via) throws Exception {
        for (int opcode : new int[] {Opcode.NOTIFY, Opcode.UPDATE, Opcode.IQUERY, Opcode.STATUS}) {
            Message q = Message.newQuery(Record.newRecord(Name.fromString("example.com."), Type.SOA, DClass.IN));
            q.getHeader().setOpcode(opcode);
            Message m = ask(via, q);
            assertThat(m.getRcode()).as(Opcode.string(opcode)).isEqualTo(Rcode.NOTIMP);
            assertThat(m.getHeader().getOpcode()).isEqualTo(opcode);
        }
    }

    @Test
    void truncatesOverUdpAndAnswersInFullOverTcp() throws Exception {
        Message udp = ask(Via.UDP, "big.example.com.", Type.TXT);
        assertThat(udp.getHeader().getFlag(Flags.TC)).isTrue();
        assertThat(udp.toWire().length).isLessThanOrEqualTo(512);

        Message q = Message.newQuery(Record.newRecord(Name.fromString("big.example.com."), Type.TXT, DClass.IN));
        q.addRecord(new OPTRecord(4096, 0, 0), Section.ADDITIONAL);
        Message edns = ask(Via.UDP, q);
        assertThat(edns.getHeader().getFlag(Flags.TC))
                .as("above the 1232-byte cap")
                .isTrue();
        assertThat(edns.toWire().length).isLessThanOrEqualTo(1232);

        Message tcp = ask(Via.TCP, "big.example.com.", Type.TXT);
        assertThat(tcp.getHeader().getFlag(Flags.TC)).isFalse();
        assertThat(tcp.getSection(Section.ANSWER)).hasSize(14);
    }

    /** Datagrams read many at a time (recvmmsg) are each answered, to their own sender, with their own ID. */
    @Test
    void aBurstFromTwoClientsIsAnsweredInFullEachToItsSender() throws Exception {
        String[] names = {"api.example.com.", "www.example.com.", "mail.example.com.", "nope.example.com."};
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramSocket even = new DatagramSocket(0, loopback);
                DatagramSocket odd = new DatagramSocket(0, loopback)) {
            for (int id = 0; id < 400; id++) {
                Message q = Message.newQuery(Record.newRecord(Name.fromString(names[id % 4]), Type.A, DClass.IN));
                q.getHeader().setID(id);
                byte[] wire = q.toWire();
                (id % 2 == 0 ? even : odd).send(new DatagramPacket(wire, wire.length, deployment.address()));
            }
            for (DatagramSocket s : List.of(even, odd)) {
                s.setSoTimeout(3000);
                Set<Integer> ids = new HashSet<>();
                for (int i = 0; i < 200; i++) {
                    DatagramPacket p = new DatagramPacket(new byte[1232], 1232);
                    s.receive(p);
                    Message m = new Message(Arrays.copyOf(p.getData(), p.getLength()));
                    int id = m.getHeader().getID();
                    assertThat(id % 2).as("answered to its sender").isEqualTo(s == even ? 0 : 1);
                    assertThat(m.getQuestion().getName()).hasToString(names[id % 4]);
                    ids.add(id);
                }
                assertThat(ids).as("every query of this client answered once").hasSize(200);
            }
        }
    }

    /** An IPv6 listener: the sender's sockaddr_in6 is read and answered to, and IPv6 wide-IP members are written. */
    @Test
    void answersOverIpv6IncludingIpv6WideIpMembers() throws Exception {
        WideIp v6 = new WideIp(
                Name.fromString("v6.example.com."),
                List.of(new Pool(
                        "v6",
                        List.of(new VirtualServer("vs6", InetAddress.ofLiteral("2001:db8::77"), new DataCenter("CNC"))),
                        List.of(ExampleDeployment.methods().create("global-availability")),
                        1,
                        -1,
                        List.of())),
                WideIp.DEFAULT_TTL);
        ListenerSettings v6only = ListenerSettings.DEFAULTS.withAddresses(
                List.of(new InetSocketAddress(InetAddress.ofLiteral("::1"), 0)), 1);
        try (ExampleDeployment d =
                new ExampleDeployment(v6only, AnswerSettings.DEFAULTS, ExampleDeployment.authority(List.of(v6)))) {
            SimpleResolver r = new SimpleResolver(d.address());
            r.setTimeout(Duration.ofSeconds(3));
            for (int i = 0; i < 3; i++) { // the second and third are answered from the thread's address cache
                Message m = r.send(
                        Message.newQuery(Record.newRecord(Name.fromString("v6.example.com."), Type.AAAA, DClass.IN)));
                assertThat(rdata(m, Section.ANSWER)).containsExactly("2001:db8:0:0:0:0:0:77");
                Message a = r.send(
                        Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.AAAA, DClass.IN)));
                assertThat(rdata(a, Section.ANSWER)).containsExactly("2001:db8:0:0:0:0:0:10");
            }
        }
    }

    /** The netty UDP listener (where the batched one cannot run, or -Dgslb.udp=netty) answers the same. */
    @Test
    void theNettyUdpFallbackAnswersTooAndDropsOversizeDatagrams() throws Exception {
        System.setProperty("gslb.udp", "netty");
        try (ExampleDeployment d = new ExampleDeployment(1)) {
            System.clearProperty("gslb.udp");
            SimpleResolver r = new SimpleResolver(d.address());
            r.setTimeout(Duration.ofSeconds(3));
            Message m =
                    r.send(Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN)));
            assertThat(rdata(m, Section.ANSWER)).containsExactlyInAnyOrder("192.0.2.10", "192.0.2.11");
            Message w =
                    r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
            assertThat(rdata(w, Section.ANSWER)).containsExactly("202.106.83.177");
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                byte[] q = Message.newQuery(Record.newRecord(Name.fromString("api.example.com."), Type.A, DClass.IN))
                        .toWire();
                byte[] big = Arrays.copyOf(q, 5000); // a real query, then padding past the 4,096-byte limit
                double before = d.counter("dns_dropped", "reason", "oversize");
                s.send(new DatagramPacket(big, big.length, d.address()));
                s.send(new DatagramPacket(q, q.length, d.address()));
                s.setSoTimeout(3000);
                DatagramPacket p = new DatagramPacket(new byte[1232], 1232);
                s.receive(p); // the answer to the second: the oversize one got none
                assertThat(new Message(Arrays.copyOf(p.getData(), p.getLength())).getRcode())
                        .isEqualTo(Rcode.NOERROR);
                assertThat(d.counter("dns_dropped", "reason", "oversize")).isEqualTo(before + 1);
            }
        } finally {
            System.clearProperty("gslb.udp");
        }
    }
}
