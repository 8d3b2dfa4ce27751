package dev.gslb.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** Binding, defaults, and errors that point at line and column. */
class SettingsReaderTest {
    /** A settings record as modules write them: defaults beside it, filled by its creator. */
    record Listener(InetSocketAddress listen, Duration idle, long cache, Path store) {
        static final int DEFAULT_PORT = 53;

        Listener {
            if (idle.isNegative() || idle.isZero()) {
                throw new IllegalArgumentException("idle must be positive");
            }
        }

        @JsonCreator
        static Listener bind(
                @JsonProperty("listen") HostPort listen,
                @JsonProperty("idle") Duration idle,
                @JsonProperty("cache") ByteSize cache,
                @JsonProperty("store") Path store,
                @JacksonInject Path folder) {
            return new Listener(
                    listen == null ? new InetSocketAddress(5353) : listen.orPort(DEFAULT_PORT),
                    Objects.requireNonNullElse(idle, Duration.ofSeconds(10)),
                    cache == null ? 1024 : cache.bytes(),
                    store == null ? folder.resolve("var/store") : store);
        }
    }

    record Item(String name, Integer ratio, List<String> members) {}

    record Doc(Listener dns, List<Item> items) {}

    private final SettingsReader reader = new SettingsReader();

    private Doc read(String yaml) throws SettingsException {
        return reader.read("t.yaml", yaml, Path.of("/etc/gslb"), Doc.class).value();
    }

    @Test
    void bindsValuesAndFillsDefaults() throws Exception {
        Doc d = read("""
                dns:
                  listen: "[::1]"
                  cache: 2KiB
                items:
                  - {name: a, ratio: 2, members: [x, y]}
                """);
        assertThat(d.dns().listen().getPort()).isEqualTo(53);
        assertThat(d.dns().idle()).hasSeconds(10);
        assertThat(d.dns().cache()).isEqualTo(2048);
        assertThat(d.dns().store()).isEqualTo(Path.of("/etc/gslb/var/store"));
        assertThat(d.items().getFirst().members()).containsExactly("x", "y");
        assertThat(read("dns: {store: data/p}\n").dns().store()).isEqualTo(Path.of("/etc/gslb/data/p"));
    }

    @Test
    void errorsNameLineColumnAndWhatIsWrong() {
        assertThatThrownBy(() -> read("dns:\n  idel: 5s\n"))
                .hasMessageStartingWith("t.yaml:2:3: unknown key 'idel' in dns; expected one of [cache, idle");
        assertThatThrownBy(() -> read("dns:\n  idle: 5 s\n"))
                .hasMessage("t.yaml:2:3: '5 s' is not a duration such as 30s, 5m or 10 (seconds)");
        assertThatThrownBy(() -> read("dns:\n  cache: 1K\n  idle: 0s\n"))
                .hasMessageStartingWith("t.yaml:2:3: '1K' is not a size");
        assertThatThrownBy(() -> read("x: 1\ndns:\n  idle: 5s\n"))
                .hasMessageStartingWith("t.yaml:1:1: unknown key 'x' in the configuration");
        assertThatThrownBy(() -> read("dns:\n  idle: 0s\n")).hasMessage("t.yaml:1:1: idle must be positive");
        assertThatThrownBy(() -> read("items:\n  - {name: a}\n  - {name: b, ratio: many}\n"))
                .hasMessage("t.yaml:3:15: items[1].ratio must be a whole number, not 'many'");
        assertThatThrownBy(() -> read("items:\n  - {name: a, ratio: 1.5}\n"))
                .hasMessageStartingWith("t.yaml:2:15: items[0].ratio must be a whole number");
        assertThatThrownBy(() -> read("items:\n  - name: a\n    name: b\n"))
                .hasMessage("t.yaml:3:5: key 'name' appears twice in items[0]");
        assertThatThrownBy(() -> read("items: [unclosed\n")).hasMessageContaining("YAML syntax");
        assertThatThrownBy(() -> read("dns: [1, 2]\n")).hasMessage("t.yaml:1:1: dns must be a mapping of key: value");
        assertThatThrownBy(() -> read("\n# nothing\n")).hasMessage("t.yaml: the file is empty");
        assertThatThrownBy(() -> read("~\n")).hasMessage("t.yaml: the file is empty");
        assertThatThrownBy(() -> read("just text\n"))
                .hasMessage("t.yaml:1:1: the configuration must be a mapping of key: value");
        assertThatThrownBy(() -> read("items:\n  - {name: a, members: [x, ~]}\n"))
                .hasMessage("t.yaml:2:28: items[0].members[1] has an empty value");
        assertThatThrownBy(() -> read("items:\n  -\n")).hasMessage("t.yaml:2:4: items[0] has an empty value");
        assertThatThrownBy(() -> read("dns:\n  listen: 1.2.3.4:99999\n"))
                .hasMessage("t.yaml:2:3: bad port in '1.2.3.4:99999'");
    }

    @Test
    void aSettingsFilePointsAtAnyNodeForLaterChecks() throws Exception {
        var f = reader.read(
                "t.yaml", "items:\n  - name: a\n    members:\n      - x\n      - y\n", Path.of("."), Doc.class);
        assertThat(f.where("items", 0, "members", 1)).isEqualTo("t.yaml:5:9");
        assertThat(f.where("items", 0, "ratio")).isEqualTo("t.yaml:2:5");
        assertThat(f.error("no such member", "items", 0, "members", 0)).hasMessage("t.yaml:4:9: no such member");
    }
}
