package dev.gslb.topology.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.load.BindViews;
import dev.gslb.topology.load.TopologyFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Any named.conf text (and an included file) is either translated, and what it gives loads as a
 * topology, or refused with {@link TopologyException} naming the file. Nothing else escapes.
 */
class BindViewsFuzzTest {
    @FuzzTest(maxDuration = "30s")
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anyNamedConfIsReadOrRefused(byte[] data) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("named.conf", new String(data, java.nio.charset.StandardCharsets.UTF_8));
        files.put("acl.conf", "acl tel { 219.172.0.0/16; };\n");
        try {
            BindViews b = BindViews.read(files);
            List<String> notes = new ArrayList<>();
            var t = b.topology(Map.of(), Set.of("CNC", "TEL"), notes);
            if (!t.texts().isEmpty()) {
                TopologyFiles.parse(t.texts(), null);
            }
        } catch (TopologyException expected) {
            if (!expected.getMessage().contains(".conf")) {
                throw new AssertionError("a refusal that does not name the file: " + expected.getMessage());
            }
        }
    }
}
