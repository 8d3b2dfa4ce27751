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
import dev.gslb.probe.Shell;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.Type;

/**
 * Knot and NSD, the real servers, as secondaries of ours over loopback with a TSIG key: each takes
 * the zone by transfer (its wide IP as the stand-in), then, told by our NOTIFY of a new serial,
 * takes the change by IXFR from the journal and serves it within seconds; kdig with a key we do
 * not have is refused.
 */
class SecondariesTest {
    private static final Name ZONE = Name.fromConstantString("example.com.");
    private static final byte[] SECRET = "a 32-byte secret for the tests!!".getBytes(StandardCharsets.US_ASCII);
    private static final String SECRET64 = Base64.getEncoder().encodeToString(SECRET);
    private static final TsigKey KEY = new TsigKey(Name.fromConstantString("xfr."), TSIG.HMAC_SHA256, SECRET);
    private static final TsigKeys KEYS = new TsigKeys(List.of(KEY));

    @Test
    void knotAndNsdFollowOurZoneByNotifyAndIxfr(@TempDir Path dir) throws Exception {
        int knotPort = FreePorts.udpAndTcp();
        int nsdPort = FreePorts.udpAndTcp();
        List<InetSocketAddress> secondaries = List.of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), knotPort),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), nsdPort));
        Authority first = offered(TransferOutTest.copy(dir, 2026112901, "192.0.2.10"), secondaries);
        try (ExampleDeployment gslb =
                new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, first)) {
            gslb.responder.tsigKeys(KEYS);
            gslb.transfers.update(first, KEYS);
            int port = gslb.address().getPort();
            Knot knot = new Knot(dir.resolve("knot"), knotPort, port, SECRET64, """
                    - domain: example.com
                      master: gslb
                      acl: notify-from-gslb
                    """);
            Process nsd = nsd(dir.resolve("nsd"), nsdPort, port);
            try {
                for (int secondary : new int[] {knotPort, nsdPort}) {
                    Knot.awaitAnswer(secondary, "api.example.com.", "192.0.2.10", Duration.ofSeconds(30));
                    assertThat(Knot.addresses(secondary, "www.example.com."))
                            .as("the wide IP's stand-in: its first member")
                            .containsExactly("202.106.83.177");
                }
                long ixfrsBefore = gslb.transfers.sent(Type.IXFR);

                Authority second = offered(TransferOutTest.copy(dir, 2026112902, "192.0.2.12"), secondaries);
                long changed = System.nanoTime();
                gslb.responder.replace(second);
                gslb.transfers.update(second, KEYS);
                double knotSeconds =
                        Knot.awaitAnswer(knotPort, "api.example.com.", "192.0.2.12", Duration.ofSeconds(20));
                Knot.awaitAnswer(nsdPort, "api.example.com.", "192.0.2.12", Duration.ofSeconds(20));
                System.out.printf(
                        "secondaries: a change served by knot after %.2f s, by both after %.2f s (NOTIFY, IXFR)%n",
                        knotSeconds, (System.nanoTime() - changed) / 1e9);
                assertThat(gslb.transfers.sent(Type.IXFR) - ixfrsBefore)
                        .as("both took the change from the journal")
                        .isEqualTo(2);

                Process stranger = new ProcessBuilder(
                                "kdig",
                                "@127.0.0.1",
                                "-p",
                                String.valueOf(port),
                                "-y",
                                "hmac-sha256:stranger.:" + SECRET64,
                                "example.com",
                                "AXFR")
                        .redirectErrorStream(true)
                        .start();
                String refused = new String(stranger.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(stranger.waitFor()).as("kdig fails").isNotZero();
                assertThat(refused)
                        .as("a key we do not have")
                        .contains("BADKEY")
                        .doesNotContain("192.0.2.12");
                String signed = Shell.run(
                        "dig",
                        "@127.0.0.1",
                        "-p",
                        String.valueOf(port),
                        "-y",
                        "hmac-sha256:xfr.:" + SECRET64,
                        "example.com",
                        "AXFR");
                assertThat(signed).contains("192.0.2.12").doesNotContain("tsig verify failure");
            } finally {
                knot.close();
                nsd.destroy();
                nsd.waitFor();
            }
        }
    }

    private static Authority offered(Path zoneFile, List<InetSocketAddress> notify) throws Exception {
        Zone zone = ZoneFile.load(zoneFile, ZONE)
                .withTransfer(new TransferSettings(List.of(Cidr.parse("127.0.0.0/8")), List.of(KEY.name()), notify));
        return new Authority(
                List.of(zone),
                List.copyOf(ExampleDeployment.authority().wideIps().values()));
    }

    private static Process nsd(Path dir, int port, int primary) throws Exception {
        Files.createDirectories(dir);
        Path conf = dir.resolve("nsd.conf");
        Files.writeString(conf, """
                server:
                  ip-address: 127.0.0.1@%d
                  username: ""
                  chroot: ""
                  zonesdir: "%s"
                  database: ""
                  pidfile: ""
                  logfile: "%s/nsd.log"
                  xfrdfile: "%s/xfrd.state"
                  xfrdir: "%s"
                  zonelistfile: "%s/zone.list"
                  verbosity: 2
                  rrl-ratelimit: 0
                remote-control:
                  control-enable: no
                key:
                  name: "xfr."
                  algorithm: hmac-sha256
                  secret: "%s"
                zone:
                  name: "example.com"
                  zonefile: "example.com.zone"
                  allow-notify: 127.0.0.0/8 xfr.
                  request-xfr: 127.0.0.1@%d xfr.
                """.formatted(port, dir, dir, dir, dir, dir, SECRET64, primary));
        return new ProcessBuilder("nsd", "-d", "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("nsd.out").toFile())
                .start();
    }
}
