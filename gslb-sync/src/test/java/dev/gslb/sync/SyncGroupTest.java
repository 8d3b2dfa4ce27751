package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.load.RuntimeLoad;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sync group's own memory stays bounded whatever its peers repeat. */
class SyncGroupTest {
    @TempDir
    Path dir;

    @Test
    void whatIsLoggedOnceIsRememberedUpToItsBound() throws Exception {
        SyncGroup<String> g =
                new SyncGroup<>(new Texts(), "datacenters: [CNC]\n", dir.resolve("config"), Clock.systemUTC());
        assertThat(g.once("refused b 1")).isTrue();
        assertThat(g.once("refused b 1")).as("a repeat is not logged again").isFalse();
        for (int i = 0; i < 10 * SyncGroup.MAX_LOGGED; i++) {
            g.once("kept " + i);
            assertThat(g.logged.size()).isLessThanOrEqualTo(SyncGroup.MAX_LOGGED);
        }
        assertThat(Files.exists(dir.resolve("config/version.json")))
                .as("what it serves is kept")
                .isTrue();
    }

    /** A configuration that is one text, shared whole. */
    record Text(String yaml) implements SharedContent {
        @Override
        public String digest() {
            return Integer.toHexString(yaml.hashCode()).repeat(4);
        }

        @Override
        public byte[] zip() {
            return yaml.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public List<RuntimeLoad> loads() {
            return List.of();
        }

        @Override
        public Map<String, byte[]> entries() {
            return Map.of("gslb.yaml", zip());
        }

        @Override
        public void writeTo(Path dir) throws IOException {
            Files.createDirectories(dir);
            Files.write(dir.resolve("gslb.yaml"), zip());
        }

        @Override
        public SharedContent withLoads(List<RuntimeLoad> loads) {
            return this;
        }

        @Override
        public SharedContent withLoadsOf(SharedContent other) {
            return this;
        }
    }

    static final class Texts implements GroupConfiguration<String> {
        @Override
        public String instance(String config) {
            return "a";
        }

        @Override
        public boolean syncOn(String config) {
            return true;
        }

        @Override
        public String label(String config) {
            return "gslb.yaml";
        }

        @Override
        public SharedContent shared(String config) {
            return new Text(config);
        }

        @Override
        public SharedContent readFrom(Path dir) throws IOException {
            return new Text(Files.readString(dir.resolve("gslb.yaml")));
        }

        @Override
        public SharedContent unzip(byte[] zipped) {
            return new Text(new String(zipped, StandardCharsets.UTF_8));
        }

        @Override
        public String over(SharedContent content, Path at, String local, String label) {
            return ((Text) content).yaml();
        }

        @Override
        public String refusal(SharedContent content, Path at, Exception e) {
            return e.getMessage();
        }

        @Override
        public String withShared(String fromFile, String running) {
            return running;
        }
    }
}
