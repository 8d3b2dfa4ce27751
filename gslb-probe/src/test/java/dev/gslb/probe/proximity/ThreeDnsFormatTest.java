package dev.gslb.probe.proximity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.topology.Address;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the table prints in 3DNS's shape reads back; a broken dump names its line and applies nothing. */
class ThreeDnsFormatTest {
    static final Set<String> DCS = Set.of("CNC", "TEL");

    @Test
    void whatIsPrintedReadsBack() {
        LdnsEntry e = LdnsEntry.of(
                new Path[] {
                    Path.of("CNC", 189_850, 10_000, 0, ProbeProtocol.TCP, 1, "a"),
                    Path.of("TEL", 57_209, 6_666, 7, ProbeProtocol.TCP, 1, "b")
                },
                LdnsEntry.State.PROBED,
                ProbeProtocol.TCP,
                0,
                1);
        String text = ThreeDnsFormat.write(Address.parse("61.136.178.229"), e, 2_419_199)
                + ThreeDnsFormat.write(Address.parse("2001:db8::53"), e, 10);
        ThreeDnsFormat.Dump dump = ThreeDnsFormat.read("dump", text, DCS);
        assertThat(dump.entries()).hasSize(2);
        ThreeDnsFormat.Ldns first = dump.entries().getFirst();
        assertThat(first.address()).isEqualTo(Address.parse("61.136.178.229"));
        assertThat(first.protocol()).isEqualTo(ProbeProtocol.TCP);
        assertThat(first.ttlSeconds()).isEqualTo(2_419_199);
        assertThat(first.paths())
                .containsExactly(
                        new ThreeDnsFormat.Dumped("CNC", 189_850, 10_000, 0),
                        new ThreeDnsFormat.Dumped("TEL", 57_209, 6_666, 7));
        assertThat(dump.skipped()).allMatch(s -> s.contains("cur_target_state (not used here)"));

        ProximityTable table = new ProximityTable(ProximitySettings.DEFAULTS, java.time.Clock.systemUTC());
        assertThat(table.importDump(dump)).isEqualTo(4);
        Path tel = table.get(Address.parse("61.136.178.229")).path("TEL");
        assertThat(tel.rttMicros()).isEqualTo(57_209);
        assertThat(tel.measuredBy()).isEqualTo(ThreeDnsFormat.IMPORTED_BY);
        assertThat(tel.freshAt(System.currentTimeMillis(), 2_400_000))
                .as("counts as measured at import")
                .isTrue();
    }

    @Test
    void unknownDataCentersAndKeysAreListedNotGuessed() {
        ThreeDnsFormat.Dump dump = ThreeDnsFormat.read("old.txt", """
                ldns {
                   address 198.18.7.1
                   cur_packet_rate 12
                   path {
                      datacenter "BGP"
                      cur_rtt 1000
                   }
                }
                """, DCS);
        assertThat(dump.entries())
                .singleElement()
                .satisfies(l -> assertThat(l.paths()).isEmpty());
        assertThat(dump.skipped())
                .containsExactly(
                        "old.txt:3: cur_packet_rate (not used here)",
                        "old.txt:4: path of data center BGP, which is not configured (" + DCS + ")");
    }

    @Test
    void aBrokenDumpNamesItsLine() {
        assertThatThrownBy(() -> ThreeDnsFormat.read("d", "ldns {\n  address 300.1.1.1\n}\n", DCS))
                .hasMessageStartingWith("d:2: address: ");
        assertThatThrownBy(() -> ThreeDnsFormat.read(
                        "d", "ldns {\n  address 198.18.7.1\n  path {\n  datacenter \"CNC\"\n  }\n}\n", DCS))
                .hasMessage("d:3: a path needs 'datacenter' and 'cur_rtt'");
        assertThatThrownBy(() -> ThreeDnsFormat.read("d", "ldns {\n  address 198.18.7.1\n", DCS))
                .hasMessage("d:1: this block is not closed");
        assertThatThrownBy(() -> ThreeDnsFormat.read("d", "topology {\n}\n", DCS))
                .hasMessage("d:1: 'topology {' is not expected here");
        assertThatThrownBy(() -> ThreeDnsFormat.read(
                        "d", "ldns {\n address 198.18.7.1\n path {\n datacenter \"CNC\"\n cur_rtt -5\n }\n}\n", DCS))
                .hasMessageStartingWith("d:5: cur_rtt: -5 is out of range");
    }
}
