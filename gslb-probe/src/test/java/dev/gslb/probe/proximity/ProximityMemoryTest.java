package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import javax.management.JMException;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * One million LDNS with two paths each must cost at most 80 bytes an entry (the tests run with
 * the server's compact object headers).
 */
public class ProximityMemoryTest {
    /**
     * The bytes of all live objects, as the JVM's class histogram counts them after a full
     * collection (what {@code jcmd PID GC.class_histogram} prints). Not the heap's "used" figure:
     * the parallel collector leaves some dead objects in place in a full collection, and that
     * reading counted up to 20 bytes an entry of garbage as the table's.
     */
    public static long usedHeap() {
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer()
                    .invoke(
                            new ObjectName("com.sun.management:type=DiagnosticCommand"),
                            "gcClassHistogram",
                            new Object[] {null},
                            new String[] {String[].class.getName()});
            // the last line: "Total <instances> <bytes>"
            String[] total = histogram
                    .strip()
                    .lines()
                    .reduce((a, b) -> b)
                    .orElseThrow()
                    .trim()
                    .split("\\s+");
            return Long.parseLong(total[2]);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fills a table with {@code n} IPv4 LDNS, each with a CNC and a TEL path; returns bytes per entry. */
    public static double bytesPerEntry(int n) throws InterruptedException {
        long before = usedHeap();
        ProximityTable t = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            Address k = new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + i));
            t.restore(
                    k,
                    LdnsEntry.probing(now)
                            .withPath(Path.of("CNC", 189850 + i % 1000, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"))
                            .withPath(Path.of("TEL", 57209 + i % 1000, 10000, 0, ProbeProtocol.TCP, now, "gslb-tel")));
        }
        long after = usedHeap();
        double per = (after - before) / (double) n;
        assertThat(t.size()).isEqualTo(n);
        return per;
    }

    @Test
    void aMillionEntriesWithTwoPathsFitIn80BytesEach() throws Exception {
        double per = bytesPerEntry(1_000_000);
        System.out.printf("proximity table: %.1f bytes per LDNS entry with two paths (1,000,000 entries)%n", per);
        assertThat(per).isLessThanOrEqualTo(80);
    }
}
