package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each monitor type binds its own keys and those every monitor takes; errors point at the key. */
class MonitorTypesTest {
    private static MonitorSpec read(String yaml) throws SettingsException {
        return new SettingsReader()
                .read("m.yaml", yaml, Path.of("/etc/gslb"), MonitorSpec.class)
                .value();
    }

    @Test
    void theRegistryNamesEveryTypeInTheReadmesOrder() {
        assertThat(MonitorTypes.names()).isEqualTo("icmp, tcp, http, https, smtp, ftp, pop3, imap, dns or external");
    }

    @Test
    void aTypeTakesItsOwnKeysAndTheCommonOnes() throws Exception {
        MonitorSpec web = read("{name: web, type: https, path: /health, interval: 20s, up: 1}");
        assertThat(web.check()).isEqualTo(new HttpCheck(true, 443, "/health", null, 200, null));
        assertThat(web.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(web.upThreshold()).isEqualTo(1);
        assertThat(web.manualResume()).as("off unless asked for").isFalse();
        assertThat(read("{name: t, type: tcp, port: 80, manual-resume: true}").manualResume())
                .isTrue();
        assertThat(read("{name: d, type: dns, query-name: example.com, query-type: AAAA}")
                        .check())
                .isEqualTo(new DnsCheck(53, org.xbill.DNS.Name.fromString("example.com."), 28, 0, null));
    }

    @Test
    void errorsPointAtTheKeyOrTheMonitor() {
        assertThatThrownBy(() -> read("{name: t, type: tcp, port: 70000}"))
                .hasMessage("m.yaml:1:22: port must be between 1 and 65535, not 70000");
        assertThatThrownBy(() -> read("{name: t, type: tcp, path: /}"))
                .hasMessageStartingWith("m.yaml:1:22: unknown key 'path'");
        assertThatThrownBy(() -> read("{name: t, type: tcp}")).hasMessage("m.yaml:1:1: a tcp monitor needs 'port:'");
        assertThatThrownBy(() -> read("{name: t, type: ping}"))
                .hasMessageStartingWith("m.yaml:1:1: unknown monitor type 'ping'");
        assertThatThrownBy(() -> read("{name: d, type: dns, query-name: x, query-type: NOPE}"))
                .hasMessage("m.yaml:1:37: 'NOPE' is not a DNS type");
    }
}
