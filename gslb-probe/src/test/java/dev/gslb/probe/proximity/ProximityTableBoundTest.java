package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The table keeps its bound under a flood of new sources, and the LDNS that matter survive it. */
class ProximityTableBoundTest {
    static Address v4(long address) {
        return new Address(0, 0xFFFF_0000_0000L | address);
    }

    @Test
    void measuredLdnsSurviveAFloodOfSpoofedSources() {
        ProximityTable t = new ProximityTable(
                ProximitySettings.DEFAULTS.withMaxLdns(10_000).withNewPerNetwork(1_000_000, 1_000_000),
                Clock.systemUTC());
        long now = System.currentTimeMillis();
        for (int i = 0; i < 1000; i++) {
            Address k = v4(0x3D000000L + i * 256L); // 61.x.y.0: 1,000 resolvers
            t.touch(k);
            t.recordPath(k, Path.of("CNC", 1000 + i, 10000, 0, ProbeProtocol.UDP, now, "a"));
        }
        for (int i = 0; i < 200_000; i++) {
            t.touch(v4(0x7F000000L + i)); // 200,000 spoofed sources
        }
        assertThat(t.size()).isLessThanOrEqualTo(10_000);
        for (int i = 0; i < 1000; i++) {
            assertThat(t.get(v4(0x3D000000L + i * 256L)))
                    .as("measured LDNS %d", i)
                    .isNotNull();
        }
        assertThat(t.admitted()).isEqualTo(201_000);
        assertThat(t.evicted()).isEqualTo(201_000 - 10_000);
        assertThat(t.refused()).isZero();
    }

    @Test
    void whenNothingUnmeasuredIsLeftTheLeastRecentlyAskedGivesWay() {
        ProximityTable t = new ProximityTable(
                ProximitySettings.DEFAULTS.withMaxLdns(1000).withNewPerNetwork(1_000_000, 1_000_000),
                Clock.systemUTC());
        long now = System.currentTimeMillis();
        for (int i = 0; i < 1000; i++) {
            Address k = v4(0x3D000000L + i);
            t.restore(
                    k,
                    LdnsEntry.of(
                            new Path[] {Path.of("CNC", 1, 10000, 0, ProbeProtocol.UDP, now, "a")},
                            LdnsEntry.State.PROBED,
                            ProbeProtocol.UDP,
                            0,
                            now - 1_000_000_000 + i * 1000L)); // 0 asked longest ago
        }
        t.touch(v4(0x01020304L));
        assertThat(t.size()).isEqualTo(1000);
        assertThat(t.get(v4(0x3D000000L))).as("the least recently asked").isNull();
        assertThat(t.get(v4(0x3D000000L + 999))).isNotNull();
        assertThat(t.evicted()).isEqualTo(1);
    }

    @Test
    void oneNetworkCannotFillTheTable() {
        // counted in the table's time, frozen here: the burst and nothing refilled while the loop runs
        ProximityTable t = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(10, 50),
                Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
        for (int i = 0; i < 256; i++) {
            t.touch(v4(0x7F000000L + i)); // every address of 127.0.0.0/24 at once
        }
        int admittedFromOne = t.size();
        for (int net = 1; net <= 10; net++) {
            t.touch(v4(0x7F000000L + net * 256L)); // other /24s are still admitted
        }
        assertThat(admittedFromOne).as("the burst").isEqualTo(50);
        assertThat(t.size()).isEqualTo(50 + 10);
        assertThat(t.refused()).isEqualTo(256 - 50);
        for (int i = 0; i < 5000; i++) {
            t.touch(new Address(0x2001_0db8_0001_0000L, i)); // one IPv6 /48
        }
        assertThat(t.size()).isEqualTo(50 + 10 + 50);
    }

    @Test
    void aPeerOverItsBudgetOfNewLdnsUpdatesKnownOnesAndEvictsNothing() {
        ProximityTable t = new ProximityTable(
                ProximitySettings.DEFAULTS.withMaxLdns(100).withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        long now = System.currentTimeMillis();
        int[] asked = {0};
        java.util.function.BooleanSupplier refuse = () -> {
            asked[0]++;
            return false;
        };
        Address known = v4(0x3D000001L);
        t.recordPath(known, Path.of("CNC", 1000, 10000, 0, ProbeProtocol.UDP, now, "a"));
        assertThat(t.recordPath(v4(0x3D000002L), Path.of("TEL", 1000, 10000, 0, ProbeProtocol.UDP, now, "b"), refuse))
                .isFalse();
        assertThat(t.get(v4(0x3D000002L))).as("not created").isNull();
        assertThat(t.recordPath(known, Path.of("TEL", 2000, 10000, 0, ProbeProtocol.UDP, now, "b"), refuse))
                .isTrue();
        assertThat(t.get(known).path("TEL").rttMicros()).isEqualTo(2000);
        assertThat(asked[0]).as("asked for the new LDNS only").isEqualTo(1);

        for (int i = 2; t.size() < 100; i++) {
            t.recordPath(v4(0x3D000000L + i), Path.of("CNC", 1000, 10000, 0, ProbeProtocol.UDP, now, "a"));
        }
        assertThat(t.recordPath(v4(0x01020304L), Path.of("TEL", 1000, 10000, 0, ProbeProtocol.UDP, now, "b"), refuse))
                .isFalse();
        assertThat(t.evicted())
                .as("a full table makes no room for what is refused")
                .isZero();
        assertThat(t.recordPath(known, Path.of("TEL", 3000, 10000, 0, ProbeProtocol.UDP, now + 1000, "b"), refuse))
                .as("a known LDNS in a full table")
                .isTrue();
        assertThat(asked[0]).isEqualTo(2);
    }
}
