package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /**
     * The instance that made a change compares with what its peer serves now: the peer that took
     * it tells only its state, and the content it sent before is stale (it showed the whole
     * change as a difference while status said both served the same).
     */
    @Test
    void aPeerThatTookTheChangeMadeHereDiffersInNothing() throws Exception {
        String file = "datacenters: [CNC]\n";
        SyncGroup<String> g = new SyncGroup<>(new Texts(), file, dir.resolve("config"), Clock.systemUTC());
        g.attach((next, loads) -> {}, () -> {}, () -> {});
        g.received("b", offer(new ConfigVersion(0, "b", new Text(file).digest()), file));
        assertThat(g.diff("b", 50)).isEmpty();

        ConfigVersion changed = g.reloaded("datacenters: [CNC, TEL]\n");
        assertThat(g.diff("b", 50)).as("before b takes it").contains("-datacenters: [CNC, TEL]", "+datacenters: [CNC]");
        g.received("b", offer(changed, null)); // b applied it: its state only
        assertThat(g.diff("b", 50)).isEmpty();
        assertThat(g.status(List.of(link("b", "connected"))).inSync()).isTrue();

        // b tells a generation whose content it has not sent: no stale comparison, a reason
        g.received("b", offer(new ConfigVersion(9, "b", new Text("other").digest()), null));
        assertThatThrownBy(() -> g.diff("b", 50))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has not sent its content yet");
    }

    /** A peer that is not connected is unknown since it was last heard, not "in sync". */
    @Test
    void aPeerNotConnectedIsUnknownSinceItWasLastHeard() throws Exception {
        String file = "datacenters: [CNC]\n";
        SyncGroup<String> g = new SyncGroup<>(new Texts(), file, dir.resolve("config"), Clock.systemUTC());
        g.attach((next, loads) -> {}, () -> {}, () -> {});
        g.received("b", offer(g.version(), file));
        var up = g.status(List.of(link("b", "connected")));
        assertThat(up.inSync()).isTrue();
        assertThat(up.peers().getFirst().state()).isEqualTo(dev.gslb.api.ConfigStatus.IN_SYNC);

        var down = g.status(List.of(link("b", "down")));
        assertThat(down.inSync()).isFalse();
        var b = down.peers().getFirst();
        assertThat(b.connected()).isFalse();
        assertThat(b.sameConfiguration()).as("what it served when last heard").isTrue();
        assertThat(b.state()).isEqualTo("unknown since " + b.heard());

        var never = g.status(List.of(link("c", "connecting")));
        assertThat(never.inSync()).isFalse();
        assertThat(never.peers().getFirst().state()).isEqualTo("unknown (never heard)");
    }

    private static ConfigExchange.Offer offer(ConfigVersion v, String content) {
        return new ConfigExchange.Offer(
                v, true, null, "", content == null ? null : content.getBytes(StandardCharsets.UTF_8));
    }

    private static dev.gslb.api.PeerStatus link(String name, String state) {
        return new dev.gslb.api.PeerStatus(name, "TEL", List.of(), null, state, null, 0, 0, 0, 0, null, null, "");
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
