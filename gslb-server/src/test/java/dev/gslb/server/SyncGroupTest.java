package dev.gslb.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sync group's own memory stays bounded whatever its peers repeat. */
class SyncGroupTest {
    @TempDir
    Path dir;

    @Test
    void whatIsLoggedOnceIsRememberedUpToItsBound() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Files.writeString(dir.resolve("gslb.yaml"), """
                zones: [{file: example.com.zone}]
                datacenters: [CNC]
                sync: {peers-file: peers}
                """);
        SyncGroup g =
                new SyncGroup(ConfigLoader.load(dir.resolve("gslb.yaml")), dir.resolve("config"), Clock.systemUTC());
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
}
