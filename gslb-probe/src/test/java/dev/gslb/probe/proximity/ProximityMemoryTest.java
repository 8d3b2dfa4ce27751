package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** One million LDNS with two paths each must cost at most 128 bytes an entry. */
public class ProximityMemoryTest {
    /** The heap in use once a collection frees nothing more: collects until a reading is no lower than the last. */
    public static long usedHeap() {
        long last = Long.MAX_VALUE;
        while (true) {
            System.gc();
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (used >= last) {
                return used;
            }
            last = used;
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
    void aMillionEntriesWithTwoPathsFitIn128BytesEach() throws Exception {
        double per = bytesPerEntry(1_000_000);
        System.out.printf("proximity table: %.1f bytes per LDNS entry with two paths (1,000,000 entries)%n", per);
        assertThat(per).isLessThanOrEqualTo(128);
    }
}
