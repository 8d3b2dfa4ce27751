package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopologyTableTest {
    private static final Set<String> DCS = Set.of("CNC", "TEL", "BGP");

    static Region region(String name, String... cidrs) {
        return new Region(
                name,
                Arrays.stream(cidrs)
                        .map(c -> new Region.Prefix(Cidr.parse(c), name + ".txt", 1))
                        .toList());
    }

    static TopologyRecord rec(String region, String dc, long score) {
        return new TopologyRecord(region, dc, score, "test.yaml:1");
    }

    static TopologyMatch at(TopologyTable t, String ip) {
        return t.lookup(InetAddress.ofLiteral(ip));
    }

    @Test
    void longestPrefixDecidesTheRegionThenHighestScoreTheDataCenter() throws Exception {
        TopologyTable t = TopologyTable.build(
                List.of(
                        region("china", "202.0.0.0/8", "2400::/12"),
                        region("unicom", "202.106.0.0/16", "2408::/16"),
                        region("beijing", "202.106.83.0/24")),
                List.of(
                        rec("unicom", "TEL", 50),
                        rec("unicom", "CNC", 100),
                        rec("china", "BGP", 10),
                        rec("beijing", "TEL", 70),
                        rec("beijing", "CNC", 70)),
                DCS);
        TopologyMatch m = at(t, "202.106.1.1");
        assertThat(m.prefix()).isEqualTo("202.106.0.0/16");
        assertThat(m.region()).isEqualTo("unicom");
        assertThat(m.bestDataCenter()).isEqualTo("CNC");
        assertThat(m.scores()).extracting(TopologyMatch.Score::dataCenter).containsExactly("CNC", "TEL");
        assertThat(at(t, "202.107.0.1").region()).isEqualTo("china");
        assertThat(at(t, "202.106.83.177").bestDataCenter())
                .as("tie keeps configuration order")
                .isEqualTo("TEL");
        assertThat(at(t, "202.106.84.0").region())
                .as("after the nested /24 the /16 resumes")
                .isEqualTo("unicom");
        assertThat(at(t, "203.0.113.1")).as("no match, no decision").isNull();
        assertThat(at(t, "2408:8000::1").region()).isEqualTo("unicom");
        assertThat(at(t, "2401::1").region()).isEqualTo("china");
        assertThat(at(t, "2001:db8::1")).isNull();
        assertThat(t.lookupV4(0xCA6A5301)).isSameAs(at(t, "202.106.83.1"));
    }

    @Test
    void edgesOfTheAddressSpaceMatch() throws Exception {
        TopologyTable t = TopologyTable.build(
                List.of(region("low", "0.0.0.0/8"), region("high", "255.255.255.0/24"), region("v6high", "ffff::/16")),
                List.of(),
                DCS);
        assertThat(at(t, "0.0.0.0").region()).isEqualTo("low");
        assertThat(at(t, "255.255.255.255").region()).isEqualTo("high");
        assertThat(at(t, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").region()).isEqualTo("v6high");
        assertThat(at(t, "1.0.0.0")).isNull();
    }

    @Test
    void duplicatesAreReportedAndTheRegionWithRecordsKeepsThem() throws Exception {
        TopologyTable t = TopologyTable.build(
                List.of(region("china", "1.12.14.0/23", "1.0.0.0/8"), region("chinanet", "1.12.14.0/23")),
                List.of(rec("chinanet", "TEL", 100)),
                DCS);
        assertThat(at(t, "1.12.14.1").region()).isEqualTo("chinanet");
        assertThat(t.warnings())
                .anySatisfy(w -> assertThat(w).contains("1.12.14.0/23 of region china is also in region chinanet"));
        assertThat(t.warnings()).anySatisfy(w -> assertThat(w).contains("lie inside region china"));
    }

    @Test
    void recordsNamingUnknownDataCentersOrRegionsAreErrors() {
        assertThatThrownBy(() -> TopologyTable.build(
                        List.of(region("unicom", "202.106.0.0/16")),
                        List.of(new TopologyRecord("unicom", "NOPE", 1, "gslb.yaml:12")),
                        DCS))
                .hasMessageContaining("gslb.yaml:12: unknown data center 'NOPE'");
        assertThatThrownBy(() -> TopologyTable.build(
                        List.of(), List.of(new TopologyRecord("cmcc", "TEL", 1, "gslb.yaml:9")), DCS))
                .hasMessageContaining("gslb.yaml:9: no region named 'cmcc' is loaded");
    }

    @Test
    void aCidrRecordIsItsOwnRegion() throws Exception {
        TopologyTable t = TopologyTable.build(List.of(), List.of(rec("202.106.0.0/16", "CNC", 100)), DCS);
        assertThat(at(t, "202.106.9.9").bestDataCenter()).isEqualTo("CNC");
    }
}
