package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration reference is the README's YAML examples: each one, put over the embedded
 * default (its sections replacing the default's), must load. A key the README shows and the
 * loader does not know, or a value it refuses, fails here. Each also goes through what a sync
 * group does with it (shared part out, merged into a local part) and must come back the same.
 */
class ReadmeConfigTest {
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path dir;

    static List<String> readmeExamples() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        List<String> blocks = new ArrayList<>();
        Matcher m = YAML_BLOCK.matcher(readme);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    @Test
    void everyExampleInTheReadmeLoads() throws Exception {
        List<String> examples = readmeExamples();
        assertThat(examples).as("the README's configuration examples").hasSizeGreaterThanOrEqualTo(4);
        YAMLMapper yaml = new YAMLMapper();
        TypeReference<Map<String, Object>> mapping = new TypeReference<>() {};
        String base = Files.readString(Path.of("src/main/resources/default-config.yaml"))
                .replace("zones/", Path.of("../zones").toAbsolutePath().normalize() + "/")
                .replace(
                        "topology-data/",
                        Path.of("../topology-data").toAbsolutePath().normalize() + "/");
        Path programs = Files.createDirectories(dir.resolve("monitor-programs")).resolve("check-vip");
        Files.writeString(programs, "#!/bin/sh\nexit 0\n"); // the program the examples' external monitor names
        assertThat(programs.toFile().setExecutable(true)).isTrue();
        for (String example : examples) {
            Map<String, Object> merged = new LinkedHashMap<>(yaml.readValue(base, mapping));
            Map<String, Object> sections = yaml.readValue(
                    example.replace(
                                    "zones/",
                                    Path.of("../zones").toAbsolutePath().normalize() + "/")
                            .replace(
                                    "topology-data/",
                                    Path.of("../topology-data").toAbsolutePath().normalize() + "/"),
                    mapping);
            merged.putAll(sections);
            Path file = dir.resolve("example-" + examples.indexOf(example) + ".yaml");
            Files.writeString(file, yaml.writeValueAsString(merged));
            GslbConfig c = ConfigLoader.load(file);
            assertThat(c.zones()).as(example).isNotEmpty();
            // what a peer loads: the shared part, written out and merged into a local part, is the same deployment
            SharedConfig shared = SharedConfig.of(c.source());
            Path at = dir.resolve("shared-" + examples.indexOf(example));
            shared.writeTo(at);
            GslbConfig peer = ConfigLoader.parse(
                    "peer",
                    new PeerBundle(shared, at).mergedInto(c.source()),
                    c.source().base());
            assertThat(peer)
                    .as(example)
                    .usingRecursiveComparison() // files now live elsewhere; a traffic source is built per load
                    .ignoringFields("source", "topology.spec.data")
                    .ignoringFieldsMatchingRegexes("links\\.traffic\\.source.*", ".*\\.origin")
                    .isEqualTo(c);
            assertThat(new PeerBundle(SharedConfig.of(peer.source()), at).mergedInto(c.source()))
                    .as("a round trip changes nothing")
                    .isEqualTo(new PeerBundle(shared, at).mergedInto(c.source()));
        }
    }
}
