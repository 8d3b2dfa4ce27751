package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What replacing a topology table changes: prefixes, regions, records and known LDNS, counted whole. */
class TopologyChangeTest {
    static Region region(String name, String... cidrs) {
        List<Region.Prefix> prefixes = new ArrayList<>();
        for (String c : cidrs) {
            prefixes.add(new Region.Prefix(Cidr.parse(c), name + ".txt", prefixes.size() + 1));
        }
        return new Region(name, prefixes);
    }

    static TopologyTable table(List<Region> regions, TopologyRecord... records) throws TopologyException {
        return TopologyTable.build(regions, List.of(records), Set.of("CNC", "TEL"));
    }

    static final TopologyRecord TEL = new TopologyRecord("chinanet", "TEL", 100, "t:1");
    static final TopologyRecord CNC = new TopologyRecord("unicom", "CNC", 100, "t:2");

    @Test
    void prefixesAddedChangedAndRemovedAreCountedWithTheRegionsInvolved() throws Exception {
        TopologyTable before = table(
                List.of(region("chinanet", "61.136.0.0/16", "202.96.0.0/16"), region("unicom", "202.106.0.0/16")),
                TEL,
                CNC);
        TopologyTable after = table(
                List.of(
                        region("chinanet", "61.136.0.0/16"),
                        region("unicom", "202.106.0.0/16", "202.96.0.0/16"),
                        region("lab", "198.18.0.0/15")),
                TEL,
                CNC);
        TopologyChange c = TopologyChange.between(
                before,
                after,
                List.of(Address.parse("202.96.1.1"), Address.parse("61.136.1.1"), Address.parse("198.18.0.1")),
                10);
        assertThat(c.added()).isEqualTo(1);
        assertThat(c.changed()).isEqualTo(1);
        assertThat(c.removed()).isZero();
        assertThat(c.prefixes())
                .containsExactly(
                        new TopologyChange.PrefixChange("198.18.0.0/15", null, "lab"),
                        new TopologyChange.PrefixChange("202.96.0.0/16", "chinanet", "unicom"));
        assertThat(c.regions())
                .containsExactly(
                        new TopologyChange.RegionChange("chinanet", 2, 1),
                        new TopologyChange.RegionChange("lab", 0, 1),
                        new TopologyChange.RegionChange("unicom", 1, 2));
        assertThat(c.ldnsKnown()).isEqualTo(3);
        assertThat(c.ldnsMoved()).isEqualTo(2);
        assertThat(c.ldns())
                .containsExactly(
                        new TopologyChange.LdnsMove("202.96.1.1", "chinanet", "TEL", "unicom", "CNC"),
                        new TopologyChange.LdnsMove("198.18.0.1", null, null, "lab", null));
        assertThat(c.none()).isFalse();
        assertThat(TopologyChange.between(after, after, List.of(Address.parse("202.96.1.1")), 10)
                        .none())
                .isTrue();
    }

    @Test
    void aRecordChangeMovesAResolverWithoutMovingAPrefix() throws Exception {
        List<Region> same = List.of(region("chinanet", "61.136.0.0/16"));
        TopologyChange c = TopologyChange.between(
                table(same, TEL),
                table(same, new TopologyRecord("chinanet", "CNC", 100, "named.conf:3")),
                List.of(Address.parse("61.136.1.1")),
                10);
        assertThat(c.added() + c.changed() + c.removed()).isZero();
        assertThat(c.recordsAdded()).isEqualTo(1);
        assertThat(c.recordsRemoved()).isEqualTo(1);
        assertThat(c.records()).containsExactly("+ chinanet -> CNC score 100", "- chinanet -> TEL score 100");
        assertThat(c.ldns())
                .containsExactly(new TopologyChange.LdnsMove("61.136.1.1", "chinanet", "TEL", "chinanet", "CNC"));
    }

    @Test
    void examplesAreBoundedAndCountsAreWhole() throws Exception {
        String[] many = new String[500];
        List<Address> ldns = new ArrayList<>();
        for (int i = 0; i < many.length; i++) {
            many[i] = "10." + (i / 256) + "." + (i % 256) + ".0/24";
            ldns.add(Address.parse("10." + (i / 256) + "." + (i % 256) + ".1"));
        }
        TopologyChange c = TopologyChange.between(table(List.of()), table(List.of(region("big", many))), ldns, 3);
        assertThat(c.added()).isEqualTo(500);
        assertThat(c.prefixes())
                .hasSize(3)
                .first()
                .extracting(TopologyChange.PrefixChange::prefix)
                .isEqualTo("10.0.0.0/24");
        assertThat(c.ldnsMoved()).isEqualTo(500);
        assertThat(c.ldns()).hasSize(3);
        TopologyChange back = TopologyChange.between(table(List.of(region("big", many))), table(List.of()), ldns, 3);
        assertThat(back.removed()).isEqualTo(500);
        assertThat(back.regions()).containsExactly(new TopologyChange.RegionChange("big", 500, 0));
    }
}
