package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneFile;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * The negative answer found in place ({@link Authority#plainNegative}) is the full lookup's answer,
 * byte for byte, whenever it is given; and it is given for names plainly not held (NXDOMAIN) or in
 * no zone here (REFUSED), not for names a wildcard, a zone cut, a wide IP or a nested zone answers.
 */
class PlainNegativeTest {
    private static final int[] TYPES = {Type.A, Type.AAAA, Type.MX, Type.TXT, Type.ANY, Type.DS, Type.NS, Type.SOA};

    @Test
    void theInPlaceAnswerIsTheFullLookupsAnswerAndIsGivenOnlyWhereItIsCertain() throws Exception {
        Pool pool = ExampleDeployment.edgePool("edge", "198.51.100.10");
        List<WideIp> wideIps = List.of(
                new WideIp(Name.fromString("*.edge.example.com."), List.of(pool), 30),
                new WideIp(Name.fromString("deep.app.example.com."), List.of(pool), 30),
                new WideIp(Name.fromString("www.example.com."), List.of(pool), 30));
        // example.com has a wildcard (*.wild), a cut (sub) and an empty non-terminal; its child
        // inner.example.com is a zone of its own; plain.test has none of them
        Zone example = ZoneFile.load(ExampleDeployment.ZONE, null);
        Zone inner = zone("inner.example.com.", "host IN A 192.0.2.1\n");
        Zone plain = zone("plain.test.", "host IN A 192.0.2.2\na.b.c IN TXT \"deep\"\n");
        Authority authority = new Authority(List.of(example, inner, plain), wideIps);
        MessageAnswerer full = new MessageAnswerer(new InstanceIdentity("t", "CNC"));

        List<String> given = List.of(
                "nope.example.com.",
                "x.nope.example.com.",
                "NoPe.Example.COM.",
                "x.mail.example.com.",
                "x.empty.nonterminal.example.com.",
                "x.deep.app.example.com.",
                "nope.inner.example.com.",
                "x.host.inner.example.com.",
                "nope.plain.test.",
                "x.b.c.plain.test.",
                "x.a.b.c.plain.test.");
        List<String> notGiven = List.of(
                "example.com.",
                "api.example.com.",
                "x.wild.example.com.",
                "a.b.wild.example.com.",
                "sub.example.com.",
                "x.sub.example.com.",
                "a.b.sub.example.com.",
                "host.edge.example.com.",
                "x.y.edge.example.com.",
                "edge.example.com.",
                "www.example.com.",
                "app.example.com.",
                "deep.app.example.com.",
                "empty.nonterminal.example.com.",
                "inner.example.com.",
                "host.inner.example.com.",
                "plain.test.",
                "b.c.plain.test.",
                "c.plain.test.");
        List<String> refused = List.of("nope.example.net.", "test.", "com.", ".", "example.com.x.", "xexample.com.");
        for (String name : given) {
            for (int type : TYPES) {
                assertThat(compare(authority, full, query(name, type, false)))
                        .as("%s %s", name, Type.string(type))
                        .isTrue();
            }
        }
        for (String name : refused) {
            for (int type : TYPES) {
                assertThat(compare(authority, full, query(name, type, true)))
                        .as("%s %s", name, Type.string(type))
                        .isTrue();
            }
        }
        for (String name : notGiven) {
            for (int type : TYPES) {
                assertThat(compare(authority, full, query(name, type, false)))
                        .as("%s %s", name, Type.string(type))
                        .isFalse();
            }
        }
        for (int type : new int[] {Type.AXFR, Type.IXFR}) {
            assertThat(compare(authority, full, query("example.com.", type, false)))
                    .as("a transfer over UDP: REFUSED")
                    .isTrue();
        }
        for (int dclass : new int[] {DClass.ANY, DClass.NONE, DClass.HS, 99}) {
            QueryView other =
                    view(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, dclass))
                            .toWire());
            assertThat(compare(authority, full, other)).as("class %d", dclass).isTrue();
        }
        assertThat(compare(authority, full, query("nope.example.com.", Type.A, true)))
                .as("with DO, unsigned: the same plain NXDOMAIN")
                .isTrue();
        QueryView chaos =
                view(Message.newQuery(Record.newRecord(Name.fromString("nope.example.com."), Type.TXT, DClass.CH))
                        .toWire());
        assertThat(authority.plainNegative(chaos)).isNull();

        // random names of every shape (letter case, bytes past ASCII, dots and zeros in a label, a
        // literal "*"): whenever given, it is the full lookup's answer
        Random random = new Random(7);
        String[] zones = {
            "example.com.", "inner.example.com.", "plain.test.", "wild.example.com.", "sub.example.com.", "example.net."
        };
        String[] labels = {
            "x", "api", "mail", "wild", "sub", "c", "b", "a", "host", "edge", "app", "deep", "zz9", "\\193x", "\\225x",
            "a\\.b", "\\000", "*"
        };
        int givenCount = 0;
        int refusedCount = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder name = new StringBuilder();
            for (int n = random.nextInt(4); n >= 0; n--) {
                name.append(labels[random.nextInt(labels.length)]).append('.');
            }
            name.append(zones[random.nextInt(zones.length)]);
            String asked = random.nextInt(4) == 0 ? name.toString().toUpperCase(Locale.ROOT) : name.toString();
            QueryView q = query(asked, TYPES[random.nextInt(TYPES.length)], random.nextBoolean());
            if (compare(authority, full, q)) {
                givenCount++;
                refusedCount += authority.plainNegative(q).rcode == Rcode.REFUSED ? 1 : 0;
            }
        }
        assertThat(givenCount).as("random names answered in place").isGreaterThan(500);
        assertThat(refusedCount).as("random names in no zone here").isGreaterThan(300);
    }

    @Test
    void aSignedZoneAskedWithDoGoesTheLongWay() throws Exception {
        Authority signed = ExampleDeployment.authority(List.of(), dev.gslb.dns.zone.DnssecSettings.DEFAULTS)
                .withKeys(
                        dev.gslb.dns.dnssec.TestKeys.ring(Name.fromString("example.com.")),
                        System::currentTimeMillis,
                        dev.gslb.dns.dnssec.Signer.Counts.NONE,
                        dev.gslb.dns.dnssec.SigningBudget.UNLIMITED);
        assertThat(signed.plainNegative(query("nope.example.com.", Type.A, true)))
                .isNull();
        assertThat(signed.plainNegative(query("nope.example.com.", Type.A, false)))
                .isNotNull();
        assertThat(signed.plainNegative(query("nope.example.net.", Type.A, true)).rcode)
                .as("REFUSED is not signed")
                .isEqualTo(Rcode.REFUSED);
    }

    /** True when the in-place answer was given, after checking it against the full lookup's answer. */
    private static boolean compare(Authority authority, MessageAnswerer full, QueryView q) {
        AnswerBody fast = authority.plainNegative(q);
        if (fast == null) {
            return false;
        }
        MessageAnswerer.Result r = full.answer(authority, q);
        assertThat(r.pending()).isNull();
        assertThat(r.body().rcode).isEqualTo(fast.rcode).isIn(Rcode.NXDOMAIN, Rcode.REFUSED);
        assertThat(fast.sections).isEqualTo(r.body().sections);
        assertThat(fast.rrsets).isEqualTo(r.body().rrsets);
        assertThat(fast.rateClass).isEqualTo(r.body().rateClass);
        assertThat(fast.authoritative).isEqualTo(r.body().authoritative);
        return true;
    }

    private static Zone zone(String origin, String body) throws Exception {
        String text = "$ORIGIN " + origin + "\n$TTL 300\n@ IN SOA ns1 hostmaster 1 3600 900 1209600 60\n@ IN NS ns1\n"
                + "ns1 IN A 192.0.2.53\n" + body;
        return ZoneFile.parse(
                origin, new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), Name.fromString(origin));
    }

    private static QueryView query(String name, int type, boolean dnssecOk) throws Exception {
        Message m = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
        if (dnssecOk) {
            m.addRecord(
                    new org.xbill.DNS.OPTRecord(1232, 0, 0, org.xbill.DNS.ExtendedFlags.DO),
                    org.xbill.DNS.Section.ADDITIONAL);
        }
        return view(m.toWire());
    }

    private static QueryView view(byte[] wire) {
        QueryView q = new QueryView();
        QueryView.Verdict v = q.read(wire, wire.length, Transport.UDP);
        assertThat(v).isIn(QueryView.Verdict.ANSWER, QueryView.Verdict.NOTIMP);
        return q;
    }
}
