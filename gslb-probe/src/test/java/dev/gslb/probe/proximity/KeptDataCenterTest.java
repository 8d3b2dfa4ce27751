package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The data center an entry keeps under the RTT margin moves with its paths alone: the same paths
 * recorded in another order, or between other queries, keep the same one, so both instances of a
 * pair answer an LDNS alike.
 */
class KeptDataCenterTest {
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    private long measured = NOW.toEpochMilli() - 60_000;

    private final ProximityTable table =
            new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));

    private Path path(String dataCenter, double rttMillis) {
        return Path.of(dataCenter, (long) (rttMillis * 1000), 10000, 0, ProbeProtocol.TCP, ++measured, "t");
    }

    private static String kept(ProximityTable t, String ldns) {
        return t.get(Address.parse(ldns)).keptDataCenterName();
    }

    private void record(ProximityTable t, String ldns, Path p) {
        t.recordPath(Address.parse(ldns), p);
    }

    private static String preferred(String ldns, String... dataCenters) {
        Address a = Address.parse(ldns);
        String best = null;
        for (String dc : dataCenters) {
            if (best == null || RttMargin.preference(a.hi(), a.lo(), dc) > RttMargin.preference(a.hi(), a.lo(), best)) {
                best = dc;
            }
        }
        return best;
    }

    @Test
    void aClearlyBestPathIsKeptAndANearTieTakesThePreferenceWhateverTheOrder() {
        ProximityTable other = new ProximityTable(ProximitySettings.DEFAULTS, Clock.fixed(NOW, ZoneOffset.UTC));
        Map<String, Integer> preferred = new HashMap<>();
        for (int n = 0; n < 100; n++) {
            String ldns = "198.18.5." + n;
            Path cnc = path("CNC", 50);
            Path tel = path("TEL", 47);
            record(table, ldns, cnc); // here CNC's path came first (measured here), TEL's from the peer
            record(table, ldns, tel);
            record(other, ldns, tel);
            record(other, ldns, cnc);
            assertThat(kept(table, ldns)).isEqualTo(kept(other, ldns)).isEqualTo(preferred(ldns, "CNC", "TEL"));
            preferred.merge(kept(table, ldns), 1, Integer::sum);
        }
        assertThat(preferred.values())
                .as("spread over both")
                .allSatisfy(c -> assertThat(c).isGreaterThan(30));
        record(table, "198.18.6.1", path("CNC", 50));
        record(table, "198.18.6.1", path("TEL", 39));
        assertThat(kept(table, "198.18.6.1")).as("11 ms better").isEqualTo("TEL");
    }

    @Test
    void theKeptOneMovesOnlyWhenAnotherIsBetterByTheMargin() {
        String ldns = "198.18.5.200";
        record(table, ldns, path("CNC", 50));
        record(table, ldns, path("TEL", 61));
        assertThat(kept(table, ldns)).isEqualTo("CNC");
        record(table, ldns, path("TEL", 41)); // 9 ms better
        assertThat(kept(table, ldns)).isEqualTo("CNC");
        assertThat(table.keptMoves()).as("the first choice is no move").isZero();
        record(table, ldns, path("TEL", 39)); // 11 ms
        assertThat(kept(table, ldns)).isEqualTo("TEL");
        assertThat(table.keptMoves()).isEqualTo(1);
        record(table, ldns, path("TEL", 45)); // back within the margin
        assertThat(kept(table, ldns)).isEqualTo("TEL");
        table.rttMargin(RttMargin.OFF);
        record(table, ldns, path("TEL", 46));
        assertThat(kept(table, ldns)).as("no margin: nothing kept").isNull();
        assertThat(table.keptMoves()).isEqualTo(1);
    }

    @Test
    void aNewDataCentersPathChoosesAfreshAndAnEntryBuiltFromPathsKeepsNone() {
        String ldns = "198.18.5.201";
        record(table, ldns, path("CNC", 50));
        assertThat(kept(table, ldns)).isEqualTo("CNC");
        record(table, ldns, path("TEL", 48));
        assertThat(kept(table, ldns)).isEqualTo(preferred(ldns, "CNC", "TEL"));
        record(table, ldns, path("BGP", 49));
        assertThat(kept(table, ldns)).isEqualTo(preferred(ldns, "CNC", "TEL", "BGP"));
        LdnsEntry stored = LdnsEntry.of(
                table.get(Address.parse(ldns)).paths(),
                LdnsEntry.State.PROBED,
                ProbeProtocol.TCP,
                0,
                NOW.toEpochMilli());
        assertThat(stored.keptDataCenter()).isEqualTo(LdnsEntry.NOT_KEPT);
    }

    @Test
    void theKeptOnesPathExpiringChoosesAfresh() {
        String ldns = "198.18.5.202";
        record(table, ldns, Path.of("CNC", 50_000, 10000, 0, ProbeProtocol.TCP, NOW.toEpochMilli() - 600_000, "peer"));
        record(table, ldns, path("TEL", 70));
        assertThat(kept(table, ldns)).isEqualTo("CNC");
        assertThat(table.removePathsMeasuredBefore(NOW.toEpochMilli() - 300_000, "TEL"))
                .isEqualTo(1);
        assertThat(kept(table, ldns)).isNull();
        record(table, ldns, path("TEL", 71));
        assertThat(kept(table, ldns)).isEqualTo("TEL");
    }
}
