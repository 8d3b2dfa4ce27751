package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The sync's expiry: peers' paths measured before the cutoff go, this data center's stay, whatever their age. */
class PathExpiryTest {
    @Test
    void peersOldPathsGoAndOurOwnStay() {
        ProximityTable t = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        long now = System.currentTimeMillis();
        long old = now - 600_000;
        Address a = ProximityTableBoundTest.v4(0x3D000001L);
        Address b = ProximityTableBoundTest.v4(0x3D000002L);
        t.recordPath(a, Path.of("CNC", 1000, 10000, 0, ProbeProtocol.UDP, old, "gslb-cnc")); // ours, old
        t.recordPath(a, Path.of("TEL", 2000, 10000, 0, ProbeProtocol.UDP, old, "gslb-tel")); // a peer's, old
        t.recordPath(b, Path.of("TEL", 3000, 10000, 0, ProbeProtocol.UDP, now, "gslb-tel")); // a peer's, fresh
        java.util.List<Address> changed = new java.util.ArrayList<>();
        t.onChange(changed::add);

        assertThat(t.removePathsMeasuredBefore(now - 60_000, "CNC")).isEqualTo(1);
        assertThat(t.get(a).paths()).extracting(Path::dataCenter).containsExactly("CNC");
        assertThat(t.get(b).paths()).extracting(Path::dataCenter).containsExactly("TEL");
        assertThat(changed)
                .as("the store hears of the entry that changed, only")
                .containsExactly(a);
        assertThat(t.removePathsMeasuredBefore(now - 60_000, "CNC"))
                .as("nothing left to expire")
                .isZero();
    }
}
