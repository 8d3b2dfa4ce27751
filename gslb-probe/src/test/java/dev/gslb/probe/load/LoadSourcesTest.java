package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.settings.Secrets;
import dev.gslb.settings.SettingsReader;
import dev.gslb.settings.SettingsTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code load:} as operators write it, bound through the registry: each source's keys, and the rules across them. */
class LoadSourcesTest {
    record Load(List<LoadSource> sources) {
        static final SettingsTable<Load> SETTINGS =
                LoadSources.addTo(SettingsTable.of(Load.class, v -> new Load(LoadSources.open(v))));
    }

    @TempDir
    Path dir;

    Load read(String yaml) throws Exception {
        return new SettingsReader()
                .read("vs.yaml", yaml, dir, Load.class, Secrets.of(Map.of()))
                .value();
    }

    @Test
    void everySourceBindsFromTheKeysTheManualShows() throws Exception {
        Load load = read("""
                nginx: "http://198.18.10.10:8080/stub_status"
                prometheus: {url: "http://198.18.10.10:9100/metrics", metric: node_load1, labels: {job: web},
                             as: load-average}
                snmp: {address: 198.18.10.10, version: 2c, community: public, metrics: [cpu, memory],
                       interface: eth0, oids: {servers-up: 1.3.6.1.4.1.99999.1.0}}
                """);
        assertThat(load.sources().stream().map(LoadSource::describe))
                .containsExactly(
                        "nginx http://198.18.10.10:8080/stub_status",
                        "prometheus http://198.18.10.10:9100/metrics node_load1{job=web} as load-average",
                        "snmp 198.18.10.10:161 bytes cpu memory packets servers-up");
        Load haproxy = read("haproxy: {url: \"http://198.18.10.10:8404/stats;csv\", backend: web, max-size: 4MiB}");
        assertThat(haproxy.sources().getFirst().describe())
                .isEqualTo("haproxy http://198.18.10.10:8404/stats;csv backend web");
        assertThat(LoadSources.keys()).containsExactly("nginx", "haproxy", "prometheus", "snmp");
    }

    @Test
    void mistakesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> read("""
                        nginx: "http://198.18.10.10/stub_status"
                        haproxy: {url: "http://198.18.10.10:8404/stats;csv", backend: web}
                        """)).hasMessageContaining("connections is read by two sources");
        assertThatThrownBy(() -> read("nginx: \"gopher://198.18.10.10/\""))
                .hasMessageContaining("not an http:// or https:// URL");
        assertThatThrownBy(() -> read("haproxy: {url: \"http://198.18.10.10/stats;csv\"}"))
                .hasMessageContaining("haproxy needs 'backend:'");
        assertThatThrownBy(() -> read("prometheus: {url: \"http://198.18.10.10/metrics\", metric: up, as: speed}"))
                .hasMessageContaining("'speed' is not a metric");
        assertThatThrownBy(() -> read("snmp: {address: 198.18.10.10, version: 3, community: public, metrics: [cpu]}"))
                .hasMessageContaining("version 3 needs 'user:'");
        assertThatThrownBy(() -> read("snmp: {address: 198.18.10.10, version: 1, community: public, metrics: [cpu]}"))
                .hasMessageContaining("2c or 3");
        assertThatThrownBy(() -> read("haproxy: {url: \"http://h/\", backend: web, max-size: 10}"))
                .hasMessageContaining("at least 1KiB");
    }
}
