package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.TestKeys;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.probe.Shell;
import dev.gslb.probe.Unbound;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.Name;

/**
 * The signed example zone on a loopback port, validated by a real unbound (the zone's KSK its
 * trust anchor, the zone a stub) and by delv: a wide IP's answer, static answers, CNAME chains,
 * a wildcard, NODATA and a name that does not exist all come back with AD; with another KSK as
 * the anchor the same answers are bogus, so the check can fail.
 */
class ValidatedAnswersTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");

    @Test
    void unboundAndDelvValidateEveryKindOfAnswer(@TempDir Path dir) throws Exception {
        KeyRing ring = TestKeys.ring(ZONE);
        DNSKEYRecord ksk = TestKeys.ksk(ring, ZONE);
        try (ExampleDeployment gslb = new ExampleDeployment(
                ExampleDeployment.listener(1),
                AnswerSettings.DEFAULTS,
                ExampleDeployment.authority(List.of(), DnssecSettings.DEFAULTS))) {
            gslb.responder.keys(ring);
            int port = gslb.address().getPort();
            List<String[]> questions = List.of(
                    new String[] {"www.example.com", "A"}, // the wide IP
                    new String[] {"www.example.com", "AAAA"}, // NODATA at the wide IP
                    new String[] {"shop.example.com", "A"}, // a CNAME into the wide IP
                    new String[] {"api.example.com", "A"},
                    new String[] {"docs.example.com", "AAAA"}, // a chain of two CNAMEs
                    new String[] {"example.com", "MX"},
                    new String[] {"any.wild.example.com", "TXT"}, // a wildcard
                    new String[] {"api.example.com", "TXT"}, // NODATA at a static name
                    new String[] {"empty.nonterminal.example.com", "A"},
                    new String[] {"nothere.example.com", "A"}); // does not exist
            try (Unbound unbound = validating(dir.resolve("good"), ksk, port)) {
                for (String[] q : questions) {
                    String answer = dig(unbound.port, q[0], q[1]);
                    assertThat(answer)
                            .as(q[0] + " " + q[1] + " validated")
                            .contains("status: NOERROR")
                            .containsPattern("flags: [a-z ]*\\bad\\b");
                }
                assertThat(dig(unbound.port, "www.example.com", "A")).contains("202.106.83.177");
            }
            Path anchors = dir.resolve("anchors.conf");
            Files.writeString(anchors, "trust-anchors { example.com. static-key 257 3 13 \"" + key(ksk) + "\"; };\n");
            for (String[] q : questions) {
                String out = Shell.run(
                        "delv",
                        "@127.0.0.1",
                        "-p",
                        String.valueOf(port),
                        "-a",
                        anchors.toString(),
                        "+root=example.com",
                        q[0],
                        q[1]);
                assertThat(out)
                        .as("delv " + q[0] + " " + q[1])
                        .contains("fully validated"); // a negative one: "negative response, fully validated"
            }
            DNSKEYRecord stranger = new DNSKEYRecord(
                    ZONE, DClass.IN, 3600, 257, 3, 13, TestKeys.ecKey().getPublic());
            try (Unbound unbound = validating(dir.resolve("wrong"), stranger, port)) {
                assertThat(dig(unbound.port, "www.example.com", "A"))
                        .as("another KSK as the anchor: bogus")
                        .contains("status: SERVFAIL");
            }
        }
    }

    private static Unbound validating(Path dir, DNSKEYRecord anchor, int port) throws Exception {
        Files.createDirectories(dir);
        return started(new Unbound(dir, """
                module-config: "validator iterator"
                do-not-query-localhost: no
                val-log-level: 2
                trust-anchor: "example.com. DNSKEY 257 3 13 %s"
                stub-zone:
                  name: "example.com."
                  stub-addr: 127.0.0.1@%d
                """.formatted(key(anchor), port)));
    }

    private static Unbound started(Unbound u) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            try {
                Shell.run(
                        "dig",
                        "+tries=1",
                        "+time=1",
                        "-p",
                        String.valueOf(u.port),
                        "@127.0.0.1",
                        "version.server",
                        "CH",
                        "TXT");
                return u;
            } catch (IllegalStateException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("unbound did not start");
    }

    private static String dig(int port, String name, String type) {
        return Shell.run("dig", "+dnssec", "+tries=1", "+time=5", "-p", String.valueOf(port), "@127.0.0.1", name, type);
    }

    /** The key field of a DNSKEY, in base64 as zone files write it. */
    private static String key(DNSKEYRecord k) {
        byte[] rdata = k.rdataToWireCanonical();
        return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(rdata, 4, rdata.length));
    }
}
