package dev.gslb.probe.bench;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityMemoryTest;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.probe.store.ProximityStore;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Prints the probing figures: probes per second at the cap with 1,000 LDNS on loopback, bytes per
 * proximity entry (1,000,000 entries, two paths), and the H2 flush time for 100,000 entries.
 * Run: bash bench/probe-bench.sh [cap]
 */
public final class ProbeFigures {
    public static void main(String[] args) throws Exception {
        int cap = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        probeRate(cap);
        System.out.printf(
                "memory: %.1f bytes per LDNS entry with two paths (1,000,000 entries)%n",
                ProximityMemoryTest.bytesPerEntry(1_000_000));
        flush(100_000);
        spoofedSources(1_000_000);
        System.exit(0);
    }

    /** The heap the default table holds after {@code n} new spoofed sources, each from its own address. */
    static void spoofedSources(int n) {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        ProximityTable table =
                new ProximityTable(dev.gslb.probe.proximity.ProximitySettings.DEFAULTS, Clock.systemUTC());
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            table.touch(0, 0xFFFF_0000_0000L | (0x0B000000L + i)); // 11.0.0.0 upwards: 3,907 /24s
        }
        for (int i = 0; i < n; i++) { // and as many again: the table is full, each one evicts
            table.touch(0, 0xFFFF_0000_0000L | (0x2B000000L + i));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.gc();
        long after = rt.totalMemory() - rt.freeMemory();
        System.out.printf(
                "spoofed sources: %,d new sources against the default table (max-ldns %,d): %,d entries,"
                        + " admitted %,d, evicted %,d, refused %,d, heap %+.0f MB, %.0f ns per new source%n",
                2 * n,
                table.settings().maxLdns(),
                table.size(),
                table.admitted(),
                table.evicted(),
                table.refused(),
                (after - before) / 1e6,
                seconds * 1e9 / (2 * n));
    }

    static void probeRate(int cap) throws Exception {
        InetAddress any = InetAddress.ofLiteral("0.0.0.0");
        int port;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.ofLiteral("127.0.0.1"))) {
            port = s.getLocalPort(); // closed: every DNS_DOT probe gets a port-unreachable reply
        }
        ProximityTable table = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        ProbeSettings settings = new ProbeSettings(
                any,
                List.of(ProbeProtocol.DNS_DOT),
                3,
                Duration.ofSeconds(1),
                cap,
                64,
                Duration.ofSeconds(60),
                port,
                port,
                List.of(),
                10_000,
                1_000_000);
        int ldns = 1000;
        try (ProbeScheduler s = new ProbeScheduler(
                table, settings, "CNC", "bench", List.of(DnsProber.dot(any, port)), new SimpleMeterRegistry())) {
            long start = System.nanoTime();
            for (int i = 0; i < ldns; i++) {
                s.ldnsQueried(
                        InetAddress.ofLiteral("127.30." + (i >> 8) + "." + (i & 0xFF)), System.currentTimeMillis());
            }
            Awaits.until("every LDNS probed", Duration.ofMinutes(10), () -> {
                int done = 0;
                for (var e : table.entries()) {
                    done += e.getValue().path("CNC") != null ? 1 : 0;
                }
                return done >= ldns;
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "probe rate: %d LDNS x 3 samples = %d probes in %.2f s = %.0f probes/s (cap %d/s)%n",
                    ldns, ldns * 3, seconds, ldns * 3 / seconds, cap);
        }
    }

    static void flush(int n) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("gslb-flush");
        ProximityTable table = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(dir.resolve("proximity"), table)) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < n; i++) {
                Address k = new Address(0, 0xFFFF_0000_0000L | (0x0B000000L + i));
                table.touch(k);
                table.recordPath(k, Path.of("CNC", 1000 + i, 10000, 0, ProbeProtocol.DNS_DOT, now, "bench"));
                table.recordPath(k, Path.of("TEL", 2000 + i, 10000, 0, ProbeProtocol.DNS_DOT, now, "bench"));
            }
            long start = System.nanoTime();
            int written = store.flush();
            double ms = (System.nanoTime() - start) / 1e6;
            System.out.printf("H2 flush: %d LDNS (%d paths) in %.0f ms%n", written, written * 2, ms);
        }
    }
}
