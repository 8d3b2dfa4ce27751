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
import dev.gslb.probe.Shell;
import dev.gslb.topology.Cidr;
import java.net.DatagramSocket;
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
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
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
        int knotPort = freePort();
        int nsdPort = freePort();
        List<InetSocketAddress> secondaries = List.of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), knotPort),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), nsdPort));
        Authority first = offered(TransferOutTest.copy(dir, 2026112901, "192.0.2.10"), secondaries);
        try (ExampleDeployment gslb =
                new ExampleDeployment(ExampleDeployment.listener(1), AnswerSettings.DEFAULTS, first)) {
            gslb.responder.tsigKeys(KEYS);
            gslb.transfers.update(first, KEYS);
            int port = gslb.address().getPort();
            Process knot = knot(dir.resolve("knot"), knotPort, port);
            Process nsd = nsd(dir.resolve("nsd"), nsdPort, port);
            try {
                for (int secondary : new int[] {knotPort, nsdPort}) {
                    awaitAnswer(secondary, "api.example.com.", "192.0.2.10", Duration.ofSeconds(30));
                    assertThat(addresses(secondary, "www.example.com."))
                            .as("the wide IP's stand-in: its first member")
                            .containsExactly("202.106.83.177");
                }
                long ixfrsBefore = gslb.transfers.sent(Type.IXFR);

                Authority second = offered(TransferOutTest.copy(dir, 2026112902, "192.0.2.12"), secondaries);
                long changed = System.nanoTime();
                gslb.responder.replace(second);
                gslb.transfers.update(second, KEYS);
                double knotSeconds = awaitAnswer(knotPort, "api.example.com.", "192.0.2.12", Duration.ofSeconds(20));
                awaitAnswer(nsdPort, "api.example.com.", "192.0.2.12", Duration.ofSeconds(20));
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
                knot.destroy();
                nsd.destroy();
                knot.waitFor();
                nsd.waitFor();
            }
        }
    }

    /** Seconds until the server on {@code port} answers {@code address} for {@code name}. */
    private static double awaitAnswer(int port, String name, String address, Duration limit) throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < limit.toNanos()) {
            if (addresses(port, name).contains(address)) {
                return (System.nanoTime() - start) / 1e9;
            }
            Thread.sleep(50); // kept: the secondaries refresh at their own pace
        }
        throw new AssertionError(
                "the secondary on port " + port + " did not answer " + address + " for " + name + " within " + limit);
    }

    private static List<String> addresses(int port, String name) {
        try {
            SimpleResolver r = new SimpleResolver(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            r.setTimeout(Duration.ofMillis(500));
            Message m = r.send(Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN)));
            return m.getSection(Section.ANSWER).stream()
                    .filter(rec -> rec.getType() == Type.A)
                    .map(Record::rdataToString)
                    .toList();
        } catch (Exception notYet) {
            return List.of();
        }
    }

    private static Authority offered(Path zoneFile, List<InetSocketAddress> notify) throws Exception {
        Zone zone = ZoneFile.load(zoneFile, ZONE)
                .withTransfer(new TransferSettings(List.of(Cidr.parse("127.0.0.0/8")), List.of(KEY.name()), notify));
        return new Authority(
                List.of(zone),
                List.copyOf(ExampleDeployment.authority().wideIps().values()));
    }

    private static Process knot(Path dir, int port, int primary) throws Exception {
        Files.createDirectories(dir);
        Path conf = dir.resolve("knot.conf");
        Files.writeString(conf, """
                server:
                    listen: 127.0.0.1@%d
                    rundir: "%s"
                log:
                  - target: "%s/knot.log"
                    any: info
                database:
                    storage: "%s"
                key:
                  - id: xfr.
                    algorithm: hmac-sha256
                    secret: %s
                remote:
                  - id: gslb
                    address: 127.0.0.1@%d
                    key: xfr.
                acl:
                  - id: notify-from-gslb
                    address: 127.0.0.0/8
                    key: xfr.
                    action: notify
                template:
                  - id: default
                    storage: "%s"
                    zonefile-sync: -1
                zone:
                  - domain: example.com
                    master: gslb
                    acl: notify-from-gslb
                """.formatted(port, dir, dir, dir, SECRET64, primary, dir));
        return new ProcessBuilder("knotd", "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("knotd.out").toFile())
                .start();
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

    private static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.ofLiteral("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
