package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.health.HealthTarget;
import dev.gslb.settings.HostPort;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code depends-on:} and {@code translation:} bind, and every mistake in them is refused at its line and column. */
class ServerRulesConfigTest {
    @TempDir
    Path dir;

    private Path config(String servers) throws Exception {
        return ConfigLoaderTest.config(dir, """
                instance: {name: gslb-tel-1, datacenter: TEL}
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                virtual-servers:
                """ + servers + """
                pools:
                  - {name: www, members: [web]}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """);
    }

    @Test
    void dependenciesAndTranslationsBind() throws Exception {
        GslbConfig c = ConfigLoader.load(config("""
                  - {name: web, address: 198.18.10.10, datacenter: CNC, depends-on: [app, db],
                     translation: "10.0.0.10:8080"}
                  - {name: app, address: 198.18.10.11, datacenter: CNC, depends-on: [db], translation: "10.0.0.11"}
                  - {name: db, address: 2001:db8::12, datacenter: CNC, translation: "[fd00::12]:5432"}
                """));
        VirtualServer web = c.site().servers().getFirst();
        assertThat(web.dependsOn()).containsExactly("app", "db");
        assertThat(web.address()).as("answers give the address").isEqualTo(InetAddress.ofLiteral("198.18.10.10"));
        HealthTarget t = c.health().getFirst();
        assertThat(t.translation()).isEqualTo(new HostPort(InetAddress.ofLiteral("10.0.0.10"), 8080));
        assertThat(t.checked()).isEqualTo("10.0.0.10:8080");
        assertThat(c.health().get(1).checked()).isEqualTo("10.0.0.11");
        assertThat(c.health().get(1).translation().port()).isEqualTo(HostPort.NO_PORT);
        assertThat(c.health().get(2).checked()).isEqualTo("[fd00::12]:5432");
        assertThat(c.health().get(2).checkedAddress()).isEqualTo(InetAddress.ofLiteral("fd00::12"));
    }

    @Test
    void anUnknownNameOrItselfIsRefusedAtTheName() throws Exception {
        Path unknown = config("""
                  - {name: web, address: 198.18.10.10, datacenter: CNC, depends-on: [app, dbb]}
                  - {name: app, address: 198.18.10.11, datacenter: CNC}
                """);
        assertThatThrownBy(() -> ConfigLoader.load(unknown))
                .hasMessageStartingWith(unknown
                        + ":5:75: virtual server web depends on dbb, which is not defined; defined: [web, app]");
        Path self = config("""
                  - {name: web, address: 198.18.10.10, datacenter: CNC, depends-on: [web]}
                """);
        assertThatThrownBy(() -> ConfigLoader.load(self))
                .hasMessageStartingWith(self + ":5:70: virtual server web depends on itself");
    }

    @Test
    void aCycleIsRefusedAndNamed() throws Exception {
        Path cycle = config("""
                  - {name: web, address: 198.18.10.10, datacenter: CNC}
                  - name: app
                    address: 198.18.10.11
                    datacenter: CNC
                    depends-on: [other, db]
                  - {name: db, address: 198.18.10.12, datacenter: CNC, depends-on: [app]}
                  - {name: other, address: 198.18.10.13, datacenter: CNC}
                """);
        assertThatThrownBy(() -> ConfigLoader.load(cycle))
                .hasMessageStartingWith(
                        cycle + ":9:25: virtual servers depend on each other in a cycle: app -> db -> app");
    }

    @Test
    void aBadTranslationIsRefusedAtItsKey() throws Exception {
        for (String bad :
                new String[] {"10.0.0.300:80", "10.0.0.10:99999", "fd00::1]:80", "[fd00::1]80", "10.0.0.1:0"}) {
            Path p = config("  - {name: web, address: 198.18.10.10, datacenter: CNC, translation: \"" + bad + "\"}\n");
            assertThatThrownBy(() -> ConfigLoader.load(p))
                    .as(bad)
                    .hasMessageStartingWith(p + ":5:57: virtual server web: translation '" + bad
                            + "' is not an address, ADDR:PORT or [ADDR]:PORT with a port 1-65535");
        }
    }
}
