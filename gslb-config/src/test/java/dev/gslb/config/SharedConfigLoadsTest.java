package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.load.RuntimeLoad;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run-time topology loads as the shared configuration keeps them: name, files in their order,
 * region, author, instance and time come back from the state folder and from a peer's zip; a
 * bundle of before (no description) and a hostile description still give usable, unique names.
 */
class SharedConfigLoadsTest {
    static final SharedConfig EMPTY = new SharedConfig("{}\n", new TreeMap<>());

    @Test
    void loadsComeBackWhole(@TempDir Path dir) throws Exception {
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("/home/op/zz.txt", "192.0.2.0/24\n");
        texts.put("/home/op/aa.txt", "198.51.100.0/24\n");
        RuntimeLoad first =
                new RuntimeLoad("lists", texts, null, "oncall", "gslb-a", Instant.parse("2025-01-02T03:04:05Z"));
        RuntimeLoad second = new RuntimeLoad("lab", Map.of("lab.txt", "198.18.0.0/15\n"), "lab", null, null, null);
        SharedConfig c = EMPTY.withLoads(List.of(first, second));
        assertThat(c.loads()).containsExactly(first, second);
        assertThat(c.loads().getFirst().texts().keySet())
                .as("in the order they were loaded")
                .containsExactly("/home/op/zz.txt", "/home/op/aa.txt");
        assertThat(SharedConfig.unzip(c.zip()).loads()).containsExactly(first, second);
        c.writeTo(dir.resolve("kept"));
        assertThat(SharedConfig.readFrom(dir.resolve("kept")).loads()).containsExactly(first, second);

        SharedConfig unloaded = c.withLoads(List.of(second));
        assertThat(unloaded.loads()).containsExactly(second);
        assertThat(unloaded.files().keySet()).noneMatch(k -> k.contains("zz.txt"));
        assertThat(c.withLoads(List.of()).digest()).isEqualTo(EMPTY.digest());
    }

    @Test
    void aBundleOfBeforeOrAHostileDescriptionStillGivesNamedLoads() throws Exception {
        SharedConfig old = SharedConfig.unzip(SharedConfigTest.zip(
                "shared.yaml", "{}\n",
                "files/loads/000000/texts/test.txt", "61.136.178.0/24\n",
                "files/loads/000001/region", "lab",
                "files/loads/000001/texts/test.txt", "198.18.0.0/15\n",
                "files/loads/000002/load.yaml", "name: \"../etc\"\nby: \"a\\u001b[2J\"\nat: yesterday\nfiles: 7\n",
                "files/loads/000002/texts/x.txt", "192.0.2.0/24\n",
                "files/loads/000003/load.yaml", "[not, a, map]",
                "files/loads/000003/region", "bad\nregion",
                "files/loads/000003/texts/y.txt", "192.0.2.0/24\n",
                "files/loads/000004/load.yaml", "name: no-texts\n"));
        List<RuntimeLoad> loads = old.loads();
        assertThat(loads)
                .extracting(RuntimeLoad::name)
                .as("names from the file names, made unique; a load with no text is left out")
                .containsExactly("test", "test-000001", "x", "y");
        assertThat(loads.get(1).region()).isEqualTo("lab");
        assertThat(loads.get(2).by())
                .as("a control character leaves the author out")
                .isNull();
        assertThat(loads.get(2).at()).isNull();
        assertThat(loads.get(3).region()).isNull();
        assertThat(loads.get(3).texts()).containsOnlyKeys("y.txt");
    }
}
