package dev.gslb.dns.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.probe.FreePorts;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;
import org.xbill.DNS.TSIG;

/**
 * A catalog zone (RFC 9432) taken by a real Knot as a catalog consumer: Knot learns the zones we
 * offer from it and transfers each by itself; a zone offered later moves the catalog's serial,
 * our NOTIFY tells Knot, and Knot serves the new zone too. The catalog's serial stays put while
 * its members do.
 */
class CatalogZoneTest {
    private static final byte[] SECRET = "a 32-byte secret for the tests!!".getBytes(StandardCharsets.US_ASCII);
    private static final TsigKey KEY = new TsigKey(Name.fromConstantString("xfr."), TSIG.HMAC_SHA256, SECRET);
    private static final TsigKeys KEYS = new TsigKeys(List.of(KEY));
    private static final Name CATALOG = Name.fromConstantString("catalog.example.");

    @Test
    void knotLearnsOurZonesFromTheCatalog(@TempDir Path dir) throws Exception {
        int knotPort = FreePorts.udpAndTcp();
        TransferSettings offered = new TransferSettings(
                List.of(Cidr.parse("127.0.0.0/8")),
                List.of(KEY.name()),
                List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), knotPort)));
        Zone example = ZoneFile.load(ExampleDeployment.ZONE, Name.fromString("example.com."))
                .withTransfer(offered);
        Zone catalog = Zone.placeholder(CATALOG, null).withTransfer(offered).asCatalog();
        CatalogZones catalogs = new CatalogZones(Clock.systemUTC());
        List<dev.gslb.dns.wideip.WideIp> wideIps =
                List.copyOf(ExampleDeployment.authority().wideIps().values());
        Authority first = catalogs.fill(new Authority(List.of(example, catalog), wideIps));
        long serial = first.zones().find(CATALOG).soa().getSerial();
        assertThat(catalogs.fill(new Authority(List.of(example, catalog), wideIps))
                        .zones()
                        .find(CATALOG)
                        .soa()
                        .getSerial())
                .as("the same members: the same serial")
                .isEqualTo(serial);
        try (ExampleDeployment gslb =
                new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, first)) {
            gslb.responder.tsigKeys(KEYS);
            gslb.transfers.update(first, KEYS);
            try (Knot knot = new Knot(
                    dir.resolve("knot"),
                    knotPort,
                    gslb.address().getPort(),
                    Base64.getEncoder().encodeToString(SECRET),
                    """
                    - domain: catalog.example.
                      master: gslb
                      acl: notify-from-gslb
                      catalog-role: interpret
                      catalog-template: member
                    """)) {
                Knot.awaitAnswer(knotPort, "api.example.com.", "192.0.2.10", Duration.ofSeconds(30));

                Path org = dir.resolve("example.org.zone");
                Files.writeString(org, """
                        $ORIGIN example.org.
                        @    300 IN SOA ns1.example.org. hostmaster.example.org. 1 3600 600 604800 300
                             300 IN NS  ns1.example.org.
                        ns1  300 IN A   198.18.0.53
                        www  300 IN A   198.18.0.80
                        """);
                Zone added = ZoneFile.load(org, Name.fromString("example.org.")).withTransfer(offered);
                Authority second = catalogs.fill(new Authority(List.of(example, added, catalog), wideIps));
                assertThat(second.zones().find(CATALOG).soa().getSerial())
                        .as("a new member moves the serial")
                        .isGreaterThan(serial);
                gslb.responder.replace(second);
                gslb.transfers.update(second, KEYS);
                Knot.awaitAnswer(knotPort, "www.example.org.", "198.18.0.80", Duration.ofSeconds(30));
            }
        }
    }
}
