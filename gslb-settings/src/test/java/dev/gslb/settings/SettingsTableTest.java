package dev.gslb.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A record bound through its table: defaults, bounds at the key, unknown keys, derived defaults. */
class SettingsTableTest {
    record Probe(int samples, Duration timeout, long cache, Path store, List<String> tags, Duration retry) {
        static final Setting<Integer> SAMPLES = Setting.integer("samples", 3, 1, 100, "probes a round");
        static final Setting<Duration> TIMEOUT = Setting.duration("timeout", Duration.ofSeconds(2), "per probe");
        static final Setting<Long> CACHE = Setting.of("cache", ByteSize.class, new ByteSize(1024), "memory")
                .map(ByteSize::bytes, 1024L);
        static final Setting<Path> STORE = Setting.path("store", "var/store", "the file");
        static final Setting<List<String>> TAGS = Setting.list("tags", String.class, List.of("a"), "tags");
        static final Setting<Duration> RETRY =
                Setting.duration("retry", null, "retry").derived("timeout x 2");

        static final SettingsTable<Probe> SETTINGS =
                SettingsTable.of(Probe.class, SAMPLES, TIMEOUT, CACHE, STORE, TAGS, RETRY);

        Probe {
            retry = retry == null ? timeout.multipliedBy(2) : retry;
            if (timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive");
            }
        }
    }

    record Doc(Probe probe) {}

    /** A probe section and some of its keys to lay over it, as a pool's {@code qos:} over the global one. */
    record Layered(Probe probe, SettingsOverlay<Probe> more) {}

    private Probe read(String yaml) throws SettingsException {
        return new SettingsReader()
                .read("t.yaml", yaml, Path.of("/etc/gslb"), Doc.class)
                .value()
                .probe();
    }

    @Test
    void absentKeysTakeTheirDefaults() throws Exception {
        Probe p = read("probe:\n  samples: 5\n  cache: 2KiB\n  tags: [x, y]\n");
        assertThat(p)
                .isEqualTo(new Probe(
                        5,
                        Duration.ofSeconds(2),
                        2048,
                        Path.of("/etc/gslb/var/store"),
                        List.of("x", "y"),
                        Duration.ofSeconds(4)));
        assertThat(Probe.SETTINGS.defaults(Path.of("/x")).store()).isEqualTo(Path.of("/x/var/store"));
        assertThat(read("probe:\n  samples:\n").samples()).isEqualTo(3);
    }

    @Test
    void errorsPointAtTheKey() {
        assertThatThrownBy(() -> read("probe:\n  timeout: 1s\n  samples: 0\n"))
                .hasMessage("t.yaml:3:3: samples must be between 1 and 100, not 0");
        assertThatThrownBy(() -> read("probe:\n  samples: many\n"))
                .hasMessage("t.yaml:2:3: probe.samples must be a whole number, not 'many'");
        assertThatThrownBy(() -> read("probe:\n  cache: lots\n"))
                .hasMessageStartingWith("t.yaml:2:3: 'lots' is not a size");
        assertThatThrownBy(() -> read("probe:\n  samles: 2\n"))
                .hasMessage("t.yaml:2:3: unknown key 'samles' in probe; expected one of"
                        + " [cache, retry, samples, store, tags, timeout]");
        assertThatThrownBy(() -> read("probe:\n  timeout: 0s\n")).hasMessage("t.yaml:1:1: timeout must be positive");
    }

    private Probe layered(String yaml) throws SettingsException {
        Layered l = new SettingsReader()
                .read("t.yaml", yaml, Path.of("/etc/gslb"), Layered.class)
                .value();
        return l.more().over(l.probe());
    }

    @Test
    void anOverlaySetsTheKeysItGivesOverAnotherRecord() throws Exception {
        assertThat(layered("probe: {samples: 5, timeout: 3s}\nmore: {samples: 7, store: other}\n"))
                .as("given keys over the base, the others the base's")
                .isEqualTo(new Probe(
                        7,
                        Duration.ofSeconds(3),
                        1024,
                        Path.of("/etc/gslb/other"),
                        List.of("a"),
                        Duration.ofSeconds(6)));
        assertThat(layered("probe: {samples: 5}\nmore: {}\n").samples()).isEqualTo(5);
        assertThatThrownBy(() -> layered("probe: {}\nmore:\n  samples: 0\n"))
                .hasMessage("t.yaml:3:3: samples must be between 1 and 100, not 0");
        assertThatThrownBy(() -> layered("probe: {}\nmore: {samles: 2}\n"))
                .hasMessage("t.yaml:2:8: unknown key 'samles' in more; expected one of"
                        + " [cache, retry, samples, store, tags, timeout]");
        assertThatThrownBy(() -> layered("probe: {}\nmore: {timeout: 0s}\n"))
                .as("the record's rules across keys, when laid over")
                .hasMessage("timeout must be positive");
    }

    @Test
    void aRecordChangesOneKeyThroughItsTable() {
        Probe d = Probe.SETTINGS.defaults();
        assertThat(Probe.SETTINGS.with(d, Probe.SAMPLES, 7).samples()).isEqualTo(7);
        assertThatThrownBy(() -> Probe.SETTINGS.with(d, Probe.SAMPLES, 0)).hasMessageContaining("between 1 and 100");
        assertThat(Probe.SETTINGS.settings().stream().map(Setting::shownDefault))
                .containsExactly("3", "2s", "1KiB", "var/store", "[a]", "timeout x 2");
    }
}
