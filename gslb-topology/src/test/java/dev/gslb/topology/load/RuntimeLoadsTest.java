package dev.gslb.topology.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyChange;
import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyTable;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run-time loads have names and can be taken back: a dry run serves nothing, an unload rebuilds
 * the table from the configured lists and the other loads (so a configured prefix a load hid comes
 * back), a revert drops them all.
 */
class RuntimeLoadsTest {
    static final String MOVED = "61.136.178.229";

    @TempDir
    Path dir;

    static RuntimeLoad load(String name, Map<String, String> texts) {
        return new RuntimeLoad(name, texts, null, "alice", "gslb-a", Instant.parse("2025-01-02T03:04:05Z"));
    }

    /** The lists of {@code dir} (a unicom.txt) with the record sending unicom to CNC. */
    static LiveTopology unicomIn(Path dir) throws Exception {
        Files.writeString(dir.resolve("unicom.txt"), "202.106.0.0/16\n");
        return new LiveTopology(new LiveTopology.Spec(
                List.of(dir), LiveTopologyTest.DEFAULT_RECORDS.subList(1, 2), Set.of("CNC", "TEL")));
    }

    static TopologyMatch at(LiveTopology t, String ip) {
        return t.table().lookup(InetAddress.ofLiteral(ip));
    }

    /** The case: a one-line test list over the shipped lists moves a telecom resolver. */
    @Test
    void aOneLineListMovesAResolverAndUnloadingItBringsTheConfiguredRegionBack() throws Exception {
        LiveTopology t = new LiveTopology(new LiveTopology.Spec(
                List.of(LiveTopologyTest.SHIPPED), LiveTopologyTest.DEFAULT_RECORDS, Set.of("CNC", "TEL")));
        TopologyTable configured = t.table();
        assertThat(at(t, MOVED).region()).isEqualTo("chinanet");

        LiveTopology.Prepared dry = t.loading(load("test", Map.of("/tmp/test.txt", "61.136.178.0/24\n")));
        assertThat(t.table()).as("a dry run serves nothing").isSameAs(configured);
        assertThat(t.loads()).isEmpty();
        TopologyChange change = TopologyChange.between(
                t.table(), dry.table(), List.of(Address.parse(MOVED), Address.parse("8.8.8.8")), 5);
        assertThat(change.added()).isEqualTo(1);
        assertThat(change.prefixes()).containsExactly(new TopologyChange.PrefixChange("61.136.178.0/24", null, "test"));
        assertThat(change.regions()).containsExactly(new TopologyChange.RegionChange("test", 0, 1));
        assertThat(change.ldnsKnown()).isEqualTo(2);
        assertThat(change.ldnsMoved()).isEqualTo(1);
        assertThat(change.ldns()).containsExactly(new TopologyChange.LdnsMove(MOVED, "chinanet", "TEL", "test", null));

        dry.commit();
        assertThat(at(t, MOVED).region()).isEqualTo("test");
        assertThat(t.loads()).extracting(RuntimeLoad::name).containsExactly("test");
        t.reload();
        assertThat(at(t, MOVED).region()).as("kept across a reload").isEqualTo("test");

        t.unloading("test").commit();
        assertThat(at(t, MOVED).region()).isEqualTo("chinanet");
        assertThat(at(t, MOVED).bestDataCenter()).isEqualTo("TEL");
        assertThat(t.table().prefixCount()).isEqualTo(configured.prefixCount());
        assertThat(t.loads()).isEmpty();
    }

    @Test
    void unloadingALoadThatReplacedAConfiguredRegionBringsItBack() throws Exception {
        LiveTopology t = unicomIn(dir);
        t.load(load("new-unicom", Map.of("unicom.txt", "221.192.0.0/14\n")));
        assertThat(at(t, "202.106.0.1"))
                .as("the region of that name was replaced")
                .isNull();
        t.load(load("lab", Map.of("lab.txt", "198.18.0.0/15\n")));

        t.unloading("new-unicom").commit();
        assertThat(at(t, "202.106.0.1").region())
                .as("the configured prefix is back")
                .isEqualTo("unicom");
        assertThat(at(t, "221.192.0.1")).isNull();
        assertThat(at(t, "198.18.0.1").region()).as("the other load stays").isEqualTo("lab");

        t.reverting().commit();
        assertThat(at(t, "198.18.0.1")).isNull();
        assertThat(t.loads()).isEmpty();
    }

    @Test
    void aLoadUnderANameInServiceReplacesThatLoad() throws Exception {
        LiveTopology t = unicomIn(dir);
        t.load(load("lab", Map.of("lab.txt", "198.18.0.0/15\n")));
        t.load(load("other", Map.of("other.txt", "192.0.2.0/24\n")));
        t.load(load("lab", Map.of("lab.txt", "198.51.100.0/24\n")));
        assertThat(t.loads()).extracting(RuntimeLoad::name).containsExactly("other", "lab");
        assertThat(at(t, "198.18.0.1")).as("the earlier lab is gone").isNull();
        assertThat(at(t, "198.51.100.1").region()).isEqualTo("lab");
        assertThat(t.countsOf("lab")).containsExactly(Map.entry("lab", 1));
        assertThat(t.countsOf("nothing")).isNull();
    }

    @Test
    void anUnknownNameIsRefusedNamingTheLoadsInService() throws Exception {
        LiveTopology t = unicomIn(dir);
        assertThatThrownBy(() -> t.unloading("lab")).hasMessage("no load named 'lab': nothing was loaded at run time");
        t.load(load("lab", Map.of("lab.txt", "198.18.0.0/15\n")));
        assertThatThrownBy(() -> t.unloading("lbs")).hasMessage("no load named 'lbs'; loaded at run time: lab");
    }

    @Test
    void theLoadsAreBoundedAndAChangePreparedBeforeAnotherIsRefused() throws Exception {
        LiveTopology t = unicomIn(dir);
        for (int i = 0; i < LiveTopology.MAX_LOADS; i++) {
            t.load(load("l" + i, Map.of("l" + i + ".txt", "10." + i + ".0.0/16\n")));
        }
        assertThatThrownBy(() -> t.loading(load("one-more", Map.of("x.txt", "192.0.2.0/24\n"))))
                .hasMessageContaining("at most " + LiveTopology.MAX_LOADS);
        t.loading(load("l7", Map.of("l7.txt", "192.0.2.0/24\n"))).commit(); // a replacement still fits

        List<RuntimeLoad> tooMany = new java.util.ArrayList<>(t.loads());
        tooMany.add(load("from-a-peer", Map.of("p.txt", "192.0.2.0/24\n")));
        assertThatThrownBy(() -> t.prepare(t.spec(), tooMany)).hasMessageContaining("at most");

        LiveTopology.Prepared stale = t.unloading("l1");
        t.unloading("l2").commit();
        assertThatThrownBy(stale::commit).hasMessageContaining("changed while this change was prepared");
        assertThat(t.loads()).extracting(RuntimeLoad::name).contains("l1").doesNotContain("l2");
    }

    @Test
    void namesAreCheckedAndDerivedFromFileNames() {
        assertThat(RuntimeLoad.nameOf("/tmp/test list.txt")).isEqualTo("test-list");
        assertThat(RuntimeLoad.nameOf("C:\\lists\\chinanet.v4.txt")).isEqualTo("chinanet.v4");
        assertThat(RuntimeLoad.nameOf("/etc/bind/.hidden")).isEqualTo("hidden");
        assertThat(RuntimeLoad.nameOf("x".repeat(100) + ".txt")).hasSize(64);
        assertThat(RuntimeLoad.nameOf("/")).isEqualTo("load");
        assertThatThrownBy(() -> load("../etc", Map.of("a", "b"))).hasMessageContaining("letters, digits");
        assertThatThrownBy(() -> load("a\nforged", Map.of("a", "b"))).hasMessageContaining("'aforged'");
        assertThatThrownBy(() -> new RuntimeLoad("a", Map.of("a", "b"), null, "x\u001b[2J", null, null))
                .hasMessageContaining("control characters");
        assertThatThrownBy(() -> load("empty", Map.of())).hasMessageContaining("no file");
        assertThat(load("x", Map.of("/tmp/a.txt", "1")).source()).isEqualTo("/tmp/a.txt");
    }
}
