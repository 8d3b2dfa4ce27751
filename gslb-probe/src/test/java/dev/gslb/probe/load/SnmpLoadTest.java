package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.Snmpd;
import dev.gslb.probe.snmp.SnmpV3User;
import dev.gslb.settings.HostPort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SNMP load source against net-snmp's snmpd on loopback, as a server's agent: HOST-RESOURCES
 * processors, UCD memory and load, IF-MIB of lo, OIDs the operator names (fixed by the agent's
 * {@code override}: a count, text that is no number, a negative), v2c and v3, a restart and a stop.
 */
class SnmpLoadTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofSeconds(3);
    static final String CONNECTIONS_OID = "1.3.6.1.4.1.99999.1.0";

    @TempDir
    Path dir;

    @AutoClose
    Snmpd snmpd;

    int port;

    void startSnmpd() throws Exception {
        if (snmpd == null) {
            snmpd = new Snmpd(dir, """
                    override 1.3.6.1.4.1.99999.1.0 integer 42
                    override 1.3.6.1.4.1.99999.2.0 octet_str "lots"
                    override 1.3.6.1.4.1.99999.3.0 integer -5
                    """);
            port = snmpd.port;
        }
        snmpd.start();
    }

    SnmpLoad v2c(List<String> metrics, String ifName, Map<String, String> oids) {
        return SnmpLoad.of(
                new SnmpLoad.Spec(HostPort.parse("127.0.0.1"), port, "2c", "gslb-test", null, metrics, ifName, oids));
    }

    static LoadReading read(LoadSource s) {
        try {
            return s.read(TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void v2cReadsMemoryLoadTheInterfaceAndAnOidAndSeesARestart() throws Exception {
        startSnmpd();
        try (SnmpLoad all = v2c(List.of("memory", "load-average"), "lo", Map.of("connections", CONNECTIONS_OID))) {
            assertThat(all.metrics())
                    .containsExactlyInAnyOrder(
                            Metric.MEMORY, Metric.LOAD_AVERAGE, Metric.BYTES, Metric.PACKETS, Metric.CONNECTIONS);
            LoadReading before = all.read(TIMEOUT);
            assertThat(before.values().keySet()).isEqualTo(all.metrics());
            assertThat(before.get(Metric.MEMORY)).isGreaterThan(0.0).isLessThan(100.0);
            assertThat(before.get(Metric.LOAD_AVERAGE)).isGreaterThanOrEqualTo(0.0);
            assertThat(before.get(Metric.CONNECTIONS)).isEqualTo(42.0);
            try (DatagramSocket s = new DatagramSocket(0, LOOPBACK)) {
                byte[] b = new byte[1000];
                for (int i = 0; i < 2000; i++) {
                    s.send(new DatagramPacket(b, b.length, LOOPBACK, 9)); // discard port: nothing listens
                }
            }
            // snmpd refreshes its interface table every few seconds, as routers do
            LoadReading after = Awaits.until(
                    "lo's counters to move",
                    Duration.ofSeconds(20),
                    () -> read(all),
                    r -> r.get(Metric.PACKETS) >= before.get(Metric.PACKETS) + 2 * 2000);
            assertThat(after.get(Metric.BYTES) - before.get(Metric.BYTES))
                    .as("lo counts each datagram in and out")
                    .isGreaterThanOrEqualTo(2 * 2_000_000.0);
            assertThat(after.epoch()).isEqualTo(before.epoch());
            assertThat(all.describe())
                    .isEqualTo("snmp 127.0.0.1:" + port + " bytes connections load-average memory packets");

            snmpd.close(); // the agent goes away: an error, never a zero
            assertThatThrownBy(() -> all.read(Duration.ofMillis(400))).hasMessageContaining("no SNMP answer");
            startSnmpd(); // its uptime starts again: a new epoch, the counters began again
            assertThat(all.read(TIMEOUT).epoch()).isNotEqualTo(before.epoch());
        }
    }

    /**
     * snmpd gives hrProcessorLoad once it has a minute of history: before, the column has no rows,
     * and the metric is an error (unknown), not the zero a fresh agent might suggest.
     */
    @Test
    void cpuIsUnknownUntilTheAgentHasAMinuteOfHistory() throws Exception {
        startSnmpd();
        try (SnmpLoad cpu = v2c(List.of("cpu"), null, Map.of())) {
            assertThatThrownBy(() -> cpu.read(TIMEOUT)).hasMessageContaining("has no hrProcessorLoad rows");
            double percent = Awaits.until(
                    "hrProcessorLoad to have rows",
                    Duration.ofSeconds(150),
                    () -> {
                        try {
                            return cpu.read(TIMEOUT).get(Metric.CPU);
                        } catch (IOException notYet) {
                            return -1.0;
                        }
                    },
                    v -> v >= 0);
            assertThat(percent).isBetween(0.0, 100.0);
        }
    }

    @Test
    void badValuesAndMissingObjectsAreErrorsNamingThem() throws Exception {
        startSnmpd();
        try (SnmpLoad text = v2c(List.of(), null, Map.of("connections", "1.3.6.1.4.1.99999.2.0"))) {
            assertThatThrownBy(() -> text.read(TIMEOUT))
                    .hasMessageContaining("connections at 1.3.6.1.4.1.99999.2.0 is 'lots', not a number");
        }
        try (SnmpLoad negative = v2c(List.of(), null, Map.of("connections", "1.3.6.1.4.1.99999.3.0"))) {
            assertThatThrownBy(() -> negative.read(TIMEOUT)).hasMessageContaining("is -5.0, not a load");
        }
        try (SnmpLoad missing = v2c(List.of(), null, Map.of("servers-up", "1.3.6.1.4.1.99999.9.0"))) {
            assertThatThrownBy(() -> missing.read(TIMEOUT))
                    .hasMessageContaining("has no servers-up at 1.3.6.1.4.1.99999.9.0");
        }
        try (SnmpLoad noSuchIf = v2c(List.of(), "eth-none", Map.of())) {
            assertThatThrownBy(() -> noSuchIf.read(TIMEOUT)).hasMessageContaining("has no interface named eth-none");
        }
        assertThatThrownBy(() -> v2c(List.of("cpu"), null, Map.of("cpu", CONNECTIONS_OID)))
                .hasMessageContaining("cpu is read twice");
        assertThatThrownBy(() -> v2c(List.of("connections"), null, Map.of()))
                .hasMessageContaining("snmp metrics are cpu, memory and load-average");
        assertThatThrownBy(() -> v2c(List.of(), null, Map.of("connections", "iso.3.6")))
                .hasMessageContaining("is not a numeric OID");
        assertThatThrownBy(() -> v2c(List.of(), null, Map.of())).hasMessageContaining("what to read");
    }

    @Test
    void v3WithAuthenticationAndPrivacyFromTheConfiguration() throws Exception {
        startSnmpd();
        Path secret = Files.writeString(dir.resolve("snmp-auth"), "authpass123\n");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        SnmpLoad.Spec spec = new dev.gslb.settings.SettingsReader()
                .read(
                        "t.yaml",
                        """
                        {address: 127.0.0.1, port: %d, version: 3, metrics: [memory, load-average],
                         user: {name: gslbuser, auth-password-file: snmp-auth, priv-password: privpass123},
                         oids: {connections: %s}}
                        """.formatted(port, CONNECTIONS_OID),
                        dir,
                        SnmpLoad.Spec.class,
                        dev.gslb.settings.Secrets.of(Map.of()))
                .value();
        assertThat(spec.user()).isEqualTo(new SnmpV3User("gslbuser", null, "authpass123", null, "privpass123"));
        try (SnmpLoad v3 = SnmpLoad.of(spec)) {
            LoadReading r = v3.read(TIMEOUT);
            assertThat(r.get(Metric.CONNECTIONS)).isEqualTo(42.0);
            assertThat(r.get(Metric.MEMORY)).isGreaterThan(0.0).isLessThan(100.0);
        }
        SnmpV3User wrong = new SnmpV3User("gslbuser", "sha", "wrongpass123", "aes", "privpass123");
        try (SnmpLoad bad = SnmpLoad.of(new SnmpLoad.Spec(
                HostPort.parse("127.0.0.1:" + port), 0, "3", null, wrong, List.of("memory"), null, Map.of()))) {
            assertThatThrownBy(() -> bad.read(Duration.ofMillis(600))).isInstanceOf(IOException.class);
        }
        assertThatThrownBy(() -> SnmpLoad.of(new SnmpLoad.Spec(
                        HostPort.parse("127.0.0.1"), 0, "3", "gslb-test", null, List.of("cpu"), null, Map.of())))
                .hasMessageContaining("version 3 needs 'user:'");
    }
}
