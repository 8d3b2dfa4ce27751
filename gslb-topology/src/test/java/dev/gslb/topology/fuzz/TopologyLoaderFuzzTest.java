package dev.gslb.topology.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import dev.gslb.topology.load.TopologyFiles;
import dev.gslb.topology.load.TopologySource;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Any file text (a CIDR list, a 3DNS topology file, APNIC delegated stats: the loader tells them
 * apart by content) either builds a table that answers lookups, or is refused with
 * {@link TopologyException} naming file and line. Nothing else escapes.
 */
class TopologyLoaderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyTextIsLoadedOrRefusedWithFileAndLine(byte[] data) {
        try {
            List<TopologySource> sources = TopologyFiles.parse(
                    Map.of("fuzz.txt", new String(data, java.nio.charset.StandardCharsets.UTF_8)), null);
            List<Region> regions = new ArrayList<>();
            List<TopologyRecord> records = new ArrayList<>();
            for (TopologySource s : sources) {
                regions.addAll(s.regions());
                records.addAll(s.records());
            }
            TopologyTable t = TopologyTable.build(regions, records, Set.of("CNC", "TEL"));
            t.lookup(InetAddress.ofLiteral("202.106.0.20"));
            t.lookup(InetAddress.ofLiteral("2001:db8::1"));
        } catch (TopologyException expected) {
            if (!expected.getMessage().contains("fuzz.txt")) {
                throw new AssertionError("a refusal that does not name the file: " + expected.getMessage());
            }
        }
    }
}
