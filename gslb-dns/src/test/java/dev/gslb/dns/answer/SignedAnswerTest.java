package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.TestKeys;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.DNSSEC;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSECRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.RRSIGRecord;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * Online signing as a validator sees it: every RRset of the signed example zone asked with DO
 * comes with RRSIGs that verify under the zone's DNSKEY RRset, itself signed by the KSK; negative
 * answers carry compact denial; without DO nothing changes.
 */
class SignedAnswerTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");
    private final Responder responder;
    private final DNSKEYRecord ksk;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    SignedAnswerTest() throws Exception {
        responder = new Responder(
                ExampleDeployment.authority(List.of(), DnssecSettings.DEFAULTS),
                ExampleDeployment.resolver(registry),
                new InstanceIdentity("signed", "CNC"),
                new DnsMetrics(registry),
                AnswerSettings.DEFAULTS);
        KeyRing ring = TestKeys.ring(ZONE);
        ksk = TestKeys.ksk(ring, ZONE);
        responder.keys(ring);
    }

    @Test
    void theDnskeyRrsetIsSignedByTheKskAndEveryAnswerByAKeyInIt() throws Exception {
        Message keys = ask("example.com.", Type.DNSKEY, true, false);
        RRset dnskeys = rrset(keys, Section.ANSWER, Type.DNSKEY);
        assertThat(dnskeys.size()).isEqualTo(2);
        assertThat(dnskeys.sigs()).extracting(RRSIGRecord::getFootprint).containsExactly(ksk.getFootprint());
        verifyAll(keys, dnskeys);
        for (String name : List.of("example.com.", "api.example.com.", "www.example.com.", "SHOP.Example.COM.")) {
            Message m = ask(name, name.startsWith("example") ? Type.SOA : Type.A, true, false);
            assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(m.getSection(Section.ANSWER)).isNotEmpty();
            int signed = verifyAll(m, dnskeys);
            assertThat(signed)
                    .as(name + ": every answer RRset signed")
                    .isEqualTo(m.getSectionRRsets(Section.ANSWER).size());
        }
    }

    @Test
    void aWideIpsAddressesAreSignedAgainAndFromTheCacheAlike() throws Exception {
        RRset dnskeys = rrset(ask("example.com.", Type.DNSKEY, true, false), Section.ANSWER, Type.DNSKEY);
        Message first = ask("www.example.com.", Type.A, true, false);
        Message again = ask("WWW.example.com.", Type.A, true, false);
        assertThat(verifyAll(first, dnskeys)).isEqualTo(1);
        assertThat(verifyAll(again, dnskeys)).isEqualTo(1);
        assertThat(rrset(again, Section.ANSWER, Type.A).sigs().getFirst().getSignature())
                .as("the second answer's signature comes from the cache")
                .isEqualTo(
                        rrset(first, Section.ANSWER, Type.A).sigs().getFirst().getSignature());
        double made =
                registry.get("dns_signatures").tag("result", "made").counter().count();
        ask("www.example.com.", Type.A, true, false);
        assertThat(registry.get("dns_signatures")
                        .tag("result", "made")
                        .counter()
                        .count())
                .as("counted when made, not when served from the cache")
                .isEqualTo(made)
                .isPositive();
    }

    @Test
    void aWildcardWideIpsAndACnamePoolsAnswersAreSignedForTheNameAsked() throws Exception {
        Responder r = edgeAndCdn(new SimpleMeterRegistry(), AnswerSettings.DEFAULTS, System::nanoTime);
        Message keys = send(r, query("example.com.", Type.DNSKEY, true, false, 1232));
        RRset dnskeys = rrset(keys, Section.ANSWER, Type.DNSKEY);
        for (String name : List.of("one.edge.example.com.", "Two.Edge.example.com.", "one.edge.example.com.")) {
            Message m = send(r, query(name, Type.A, true, false, 1232));
            RRset a = rrset(m, Section.ANSWER, Type.A);
            assertThat(a.getName()).isEqualTo(Name.fromString(name));
            assertThat(a.sigs().getFirst().getLabels())
                    .as("signed as the name asked, no wildcard proof needed")
                    .isEqualTo(4);
            assertThat(verifyAll(m, dnskeys)).isEqualTo(1);
        }
        Message alias = send(r, query("cdn.example.com.", Type.A, true, false, 1232));
        assertThat(rrset(alias, Section.ANSWER, Type.CNAME).sigs()).hasSize(1);
        assertThat(verifyAll(alias, dnskeys)).isEqualTo(1);
    }

    /** A wildcard wide IP, *.edge.example.com (one virtual server), and a CNAME pool at cdn.example.com. */
    private static Responder edgeAndCdn(SimpleMeterRegistry registry, AnswerSettings settings, LongSupplier nanos)
            throws Exception {
        dev.gslb.dns.method.MethodRegistry methods = ExampleDeployment.methods();
        dev.gslb.dns.wideip.Pool servers = new dev.gslb.dns.wideip.Pool(
                "edge",
                List.of(new dev.gslb.site.VirtualServer(
                        "vs-edge",
                        java.net.InetAddress.ofLiteral("198.51.100.10"),
                        new dev.gslb.site.DataCenter("CNC"))),
                List.of(methods.create("global-availability")),
                1,
                -1,
                List.of());
        dev.gslb.dns.wideip.Pool names = dev.gslb.dns.wideip.Pool.cname(
                "cdn",
                List.of(methods.create("round-robin")),
                -1,
                new dev.gslb.dns.wideip.CnameMembers(
                        List.of(new dev.gslb.dns.wideip.CnameTarget(Name.fromString("a.cdn-provider.example."), 1))));
        Responder r = new Responder(
                ExampleDeployment.authority(
                        List.of(
                                new dev.gslb.dns.wideip.WideIp(
                                        Name.fromString("*.edge.example.com."), List.of(servers), 30),
                                new dev.gslb.dns.wideip.WideIp(
                                        Name.fromString("cdn.example.com."), List.of(names), 30)),
                        DnssecSettings.DEFAULTS),
                ExampleDeployment.resolver(registry),
                new InstanceIdentity("signed", "CNC"),
                new DnsMetrics(registry),
                settings,
                nanos,
                null);
        r.keys(TestKeys.ring(ZONE));
        return r;
    }

    @Test
    void newNamesOfAWildcardWideIpBeyondTheSigningBudgetAreServfail() throws Exception {
        long[] nanos = {0};
        SimpleMeterRegistry counted = new SimpleMeterRegistry();
        Responder r = edgeAndCdn(
                counted,
                AnswerSettings.SETTINGS.with(AnswerSettings.DEFAULTS, AnswerSettings.SIGNATURES_PER_SECOND, 2),
                () -> nanos[0]);
        for (String name : List.of("one.edge.example.com.", "two.edge.example.com.")) {
            assertThat(rrset(send(r, query(name, Type.A, true, false, 1232)), Section.ANSWER, Type.A)
                            .sigs())
                    .hasSize(1);
        }
        Message over = send(r, query("three.edge.example.com.", Type.A, true, false, 1232));
        assertThat(over.getRcode()).isEqualTo(Rcode.SERVFAIL);
        assertThat(over.getSection(Section.ANSWER)).isEmpty();
        assertThat(rrset(send(r, query("one.edge.example.com.", Type.A, true, false, 1232)), Section.ANSWER, Type.A)
                        .sigs())
                .as("signed before: served from the signatures kept")
                .hasSize(1);
        assertThat(send(r, query("three.edge.example.com.", Type.A, false, false, 1232))
                        .getRcode())
                .as("without DO")
                .isEqualTo(Rcode.NOERROR);
        assertThat(counted.get("dns_signatures")
                        .tag("result", "over-budget")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void withoutDoNothingIsSigned() throws Exception {
        for (String name : List.of("www.example.com.", "api.example.com.", "nothere.example.com.")) {
            Message m = ask(name, Type.A, false, false);
            for (int section : new int[] {Section.ANSWER, Section.AUTHORITY}) {
                assertThat(m.getSection(section)).extracting(Record::getType).doesNotContain(Type.RRSIG, Type.NSEC);
            }
        }
        assertThat(ask("nothere.example.com.", Type.A, false, false).getRcode()).isEqualTo(Rcode.NXDOMAIN);
    }

    @Test
    void noDataAtAWideIpAndAtAStaticNameIsProvenByAnNsecAtTheName() throws Exception {
        RRset dnskeys = rrset(ask("example.com.", Type.DNSKEY, true, false), Section.ANSWER, Type.DNSKEY);
        for (String[] c : new String[][] {
            {"www.example.com.", "AAAA"},
            {"www.example.com.", "TXT"},
            {"api.example.com.", "MX"},
            {"example.com.", "AAAA"},
            {"empty.nonterminal.example.com.", "A"}
        }) {
            int type = Type.value(c[1]);
            Message m = ask(c[0], type, true, false);
            assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
            assertThat(m.getSection(Section.ANSWER)).as(c[0] + " " + c[1]).isEmpty();
            NSECRecord nsec =
                    (NSECRecord) rrset(m, Section.AUTHORITY, Type.NSEC).first();
            assertThat(nsec.getName()).isEqualTo(Name.fromString(c[0]));
            assertThat(nsec.getNext()).isEqualTo(Name.concatenate(Name.fromString("\\000"), nsec.getName()));
            assertThat(nsec.hasType(type))
                    .as("the asked type is not at the name")
                    .isFalse();
            assertThat(nsec.hasType(Type.CNAME)).isFalse();
            assertThat(nsec.hasType(Type.NSEC) && nsec.hasType(Type.RRSIG)).isTrue();
            assertThat(verifyAll(m, dnskeys)).as("SOA and NSEC signed").isEqualTo(2);
        }
        NSECRecord apex = (NSECRecord) rrset(ask("example.com.", Type.AAAA, true, false), Section.AUTHORITY, Type.NSEC)
                .first();
        assertThat(apex.hasType(Type.DNSKEY) && apex.hasType(Type.SOA) && apex.hasType(Type.NS))
                .isTrue();
    }

    @Test
    void aNameThatDoesNotExistIsNoerrorWithNxnameUnlessTheClientSaysCo() throws Exception {
        RRset dnskeys = rrset(ask("example.com.", Type.DNSKEY, true, false), Section.ANSWER, Type.DNSKEY);
        Message m = ask("nothere.example.com.", Type.A, true, false);
        assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
        NSECRecord nsec = (NSECRecord) rrset(m, Section.AUTHORITY, Type.NSEC).first();
        assertThat(nsec.getName()).isEqualTo(Name.fromString("nothere.example.com."));
        assertThat(nsec.getTypes()).containsExactlyInAnyOrder(Type.RRSIG, Type.NSEC, 128);
        assertThat(verifyAll(m, dnskeys)).isEqualTo(2);
        assertThat(ask("nothere.example.com.", Type.A, true, true).getRcode())
                .as("CO: the client takes NXDOMAIN")
                .isEqualTo(Rcode.NXDOMAIN);
    }

    @Test
    void newNamesBeyondTheSigningBudgetAreServfailWhileWhatWasSignedIsServedFromTheCache() throws Exception {
        long[] nanos = {0};
        SimpleMeterRegistry counted = new SimpleMeterRegistry();
        Responder r = new Responder(
                ExampleDeployment.authority(List.of(), DnssecSettings.DEFAULTS),
                ExampleDeployment.resolver(counted),
                new InstanceIdentity("signed", "CNC"),
                new DnsMetrics(counted),
                AnswerSettings.SETTINGS.with(AnswerSettings.DEFAULTS, AnswerSettings.SIGNATURES_PER_SECOND, 3),
                () -> nanos[0],
                null);
        r.keys(TestKeys.ring(ZONE));
        // three signings a second: the SOA's, then the NSECs of two names that do not exist
        for (String name : new String[] {"gone1.example.com.", "gone2.example.com."}) {
            Message m = send(r, query(name, Type.A, true, false, 1232));
            assertThat(m.getRcode()).as(name).isEqualTo(Rcode.NOERROR);
            assertThat(rrset(m, Section.AUTHORITY, Type.NSEC).sigs()).isNotEmpty();
        }
        assertThat(send(r, query("gone3.example.com.", Type.A, true, false, 1232))
                        .getRcode())
                .as("a third new name in the same second")
                .isEqualTo(Rcode.SERVFAIL);
        assertThat(counted.get("dns_signatures")
                        .tag("result", "over-budget")
                        .counter()
                        .count())
                .isEqualTo(1);
        Message again = send(r, query("gone1.example.com.", Type.A, true, false, 1232));
        assertThat(rrset(again, Section.AUTHORITY, Type.NSEC).getName())
                .as("a signed denial is kept in the answer cache")
                .isEqualTo(Name.fromString("gone1.example.com."));
        assertThat(send(r, query("gone3.example.com.", Type.A, false, false, 1232))
                        .getRcode())
                .as("without DO nothing is signed, nothing is held back")
                .isEqualTo(Rcode.NXDOMAIN);
        nanos[0] += 1_000_000_000L;
        Message later = send(r, query("gone3.example.com.", Type.A, true, false, 1232));
        assertThat(rrset(later, Section.AUTHORITY, Type.NSEC).getName())
                .as("a second later the budget has room again")
                .isEqualTo(Name.fromString("gone3.example.com."));
    }

    @Test
    void aReferralCarriesTheNsecThatSaysTheChildIsUnsignedAndItsGlueIsNotSigned() throws Exception {
        RRset dnskeys = rrset(ask("example.com.", Type.DNSKEY, true, false), Section.ANSWER, Type.DNSKEY);
        Message m = ask("host.sub.example.com.", Type.A, true, false);
        assertThat(m.getHeader().getFlag(Flags.AA)).isFalse();
        assertThat(rrset(m, Section.AUTHORITY, Type.NS).sigs()).isEmpty();
        NSECRecord nsec = (NSECRecord) rrset(m, Section.AUTHORITY, Type.NSEC).first();
        assertThat(nsec.getName()).isEqualTo(Name.fromString("sub.example.com."));
        assertThat(nsec.hasType(Type.NS) && !nsec.hasType(Type.DS)).isTrue();
        assertThat(verifyAll(m, dnskeys)).as("only the NSEC is signed").isEqualTo(1);
        assertThat(m.getSection(Section.ADDITIONAL)).extracting(Record::getType).doesNotContain(Type.RRSIG);
    }

    @Test
    void anAnswerTooLargeForTheClientIsCutAtAnRrsetWithTc() throws Exception {
        byte[] q = query("www.example.com.", Type.A, true, false, 512);
        Message whole = send(q);
        assertThat(whole.getHeader().getFlag(Flags.TC)).isFalse();
        Message big = ask("big.example.com.", Type.TXT, true, false);
        assertThat(big.getHeader().getFlag(Flags.TC)).isTrue();
        assertThat(big.getSection(Section.ANSWER)).isEmpty();
    }

    /** Verifies every RRSIG in the answer and authority sections against {@code dnskeys}; returns how many RRsets were signed. */
    private static int verifyAll(Message m, RRset dnskeys) throws Exception {
        int signed = 0;
        for (int section : new int[] {Section.ANSWER, Section.AUTHORITY}) {
            for (RRset set : m.getSectionRRsets(section)) {
                if (set.sigs().isEmpty()) {
                    continue;
                }
                signed++;
                for (RRSIGRecord sig : set.sigs()) {
                    DNSKEYRecord key = dnskeys.rrs().stream()
                            .map(DNSKEYRecord.class::cast)
                            .filter(d -> d.getFootprint() == sig.getFootprint())
                            .findFirst()
                            .orElseThrow();
                    DNSSEC.verify(set, sig, key, Instant.now());
                }
            }
        }
        return signed;
    }

    private static RRset rrset(Message m, int section, int type) {
        return m.getSectionRRsets(section).stream()
                .filter(s -> s.getType() == type)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + Type.string(type) + " in " + m));
    }

    private Message ask(String name, int type, boolean dnssecOk, boolean compactOk) throws Exception {
        return send(query(name, type, dnssecOk, compactOk, 1232));
    }

    static byte[] query(String name, int type, boolean dnssecOk, boolean compactOk, int size) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
        int flags = (dnssecOk ? 0x8000 : 0) | (compactOk ? 0x4000 : 0);
        q.addRecord(new OPTRecord(size, 0, 0, flags, new ArrayList<>()), Section.ADDITIONAL);
        return q.toWire();
    }

    private Message send(byte[] q) throws Exception {
        return send(responder, q);
    }

    private static Message send(Responder responder, byte[] q) throws Exception {
        ByteBuf out = Unpooled.buffer(65535);
        Address client = Address.parse("127.0.0.1");
        assertThat(responder.respond(q, q.length, Transport.UDP, client.hi(), client.lo(), out))
                .isTrue();
        byte[] wire = new byte[out.readableBytes()];
        out.getBytes(0, wire);
        return new Message(wire);
    }
}
