package dev.gslb.probe.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.Snmpd;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two traffic sources against the real thing: this host's loopback counters, and net-snmp's
 * snmpd on loopback serving IF-MIB over v2c and v3 (USM with SHA and AES), restarted and stopped.
 */
class TrafficSourcesTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @AutoClose
    Snmpd snmpd;

    int port;

    /** Starts snmpd on a free loopback port (the same port again on a restart). */
    void startSnmpd() throws Exception {
        if (snmpd == null) {
            snmpd = new Snmpd(dir, "");
            port = snmpd.port;
        }
        snmpd.start();
    }

    /**
     * Reads until the counters move: snmpd refreshes its interface table every few seconds, as
     * routers do, so one reading right after the traffic may still show the old values.
     */
    static TrafficSource.Counters readAfterChange(TrafficSource c, TrafficSource.Counters before) throws Exception {
        return Awaits.until(
                "the counters to move",
                Duration.ofSeconds(20),
                () -> {
                    try {
                        return c.read(TIMEOUT);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                },
                now -> now.inOctets() != before.inOctets() || now.epoch() != before.epoch());
    }

    static void sendOnLoopback(int octets) throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, LOOPBACK)) {
            byte[] b = new byte[1000];
            for (int sent = 0; sent < octets; sent += b.length) {
                s.send(new DatagramPacket(b, b.length, LOOPBACK, 9)); // discard port: nothing listens
            }
        }
    }

    @Test
    void interfaceCountersFollowTheTraffic() throws Exception {
        InterfaceCounters lo = new InterfaceCounters("lo");
        TrafficSource.Counters before = lo.read(TIMEOUT);
        sendOnLoopback(1_000_000);
        TrafficSource.Counters after = lo.read(TIMEOUT);
        assertThat(after.inOctets() - before.inOctets()).isGreaterThanOrEqualTo(1_000_000);
        assertThat(after.epoch()).isEqualTo(before.epoch());
        assertThatThrownBy(() -> new InterfaceCounters("no-such-if0").read(TIMEOUT))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> new InterfaceCounters("../../etc")).hasMessageContaining("not an interface name");
    }

    @Test
    void snmpV2cReadsTheNamedInterfacesCountersAndSeesARestart() throws Exception {
        startSnmpd();
        try (SnmpCounters c =
                new SnmpCounters(new InetSocketAddress(LOOPBACK, port), "gslb-test", null, "lo", 0, false)) {
            TrafficSource.Counters before = c.read(TIMEOUT);
            sendOnLoopback(2_000_000);
            TrafficSource.Counters after = readAfterChange(c, before);
            assertThat(after.inOctets() - before.inOctets()).isGreaterThanOrEqualTo(2_000_000);
            assertThat(c.describe()).isEqualTo("snmp 127.0.0.1:" + port + " if-name lo");

            snmpd.close(); // the agent goes away: an error, never a zero
            assertThatThrownBy(() -> c.read(Duration.ofMillis(400)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no SNMP answer");

            startSnmpd(); // its uptime starts again: the counters' epoch changes
            TrafficSource.Counters restarted = c.read(TIMEOUT);
            assertThat(restarted.epoch()).isNotEqualTo(after.epoch());
        }
    }

    @Test
    void snmpV3WithAuthenticationAndPrivacy() throws Exception {
        startSnmpd();
        // the passphrases as an operator keeps them: one in a file only gslb may read, one in a variable
        Path auth = Files.writeString(dir.resolve("snmp-auth"), "authpass123\n");
        Files.setPosixFilePermissions(auth, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        var user = new dev.gslb.settings.SettingsReader()
                .read(
                        "t.yaml",
                        "{name: gslbuser, auth-protocol: sha, auth-password-file: snmp-auth, priv-protocol: aes,"
                                + " priv-password: '${env:GSLB_SNMP_PRIV}'}",
                        dir,
                        dev.gslb.probe.snmp.SnmpV3User.class,
                        dev.gslb.settings.Secrets.of(java.util.Map.of("GSLB_SNMP_PRIV", "privpass123")))
                .value();
        assertThat(user)
                .isEqualTo(new dev.gslb.probe.snmp.SnmpV3User("gslbuser", "sha", "authpass123", "aes", "privpass123"));
        try (SnmpCounters c = new SnmpCounters(new InetSocketAddress(LOOPBACK, port), null, user, null, 1, true)) {
            TrafficSource.Counters before = c.read(TIMEOUT);
            sendOnLoopback(1_000_000);
            assertThat(readAfterChange(c, before).inOctets() - before.inOctets())
                    .as("facing the site: the interface's out is the site's in")
                    .isGreaterThanOrEqualTo(1_000_000);
        }
        var wrong = new dev.gslb.probe.snmp.SnmpV3User("gslbuser", "sha", "wrongpass123", "aes", "privpass123");
        try (SnmpCounters c = new SnmpCounters(new InetSocketAddress(LOOPBACK, port), null, wrong, null, 1, false)) {
            assertThatThrownBy(() -> c.read(Duration.ofMillis(600))).isInstanceOf(IOException.class);
        }
        try (SnmpCounters c =
                new SnmpCounters(new InetSocketAddress(LOOPBACK, port), "gslb-test", null, "eth-none", 0, false)) {
            assertThatThrownBy(() -> c.read(TIMEOUT)).hasMessageContaining("has no interface named eth-none");
        }
    }
}
