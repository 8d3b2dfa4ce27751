package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.answer.Authority;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Name;

/** CNAME pools and wildcard wide IPs load from the config; what they cannot do is refused at its line and column. */
class CnameAndWildcardConfigTest {
    @TempDir
    Path dir;

    private static final String GOOD = """
            zones:
              - file: example.com.zone
            datacenters: [CNC, TEL]
            virtual-servers:
              - {name: vs1, address: 202.106.83.177, datacenter: CNC}
            pools:
              - {name: www, members: [vs1]}
              - name: web-cdn
                type: cname
                members: [web.cdn-provider.example., {name: web2.cdn-provider.example, ratio: 2}]
                preferred: ratio
                ttl: 20s
            wide-ips:
              - {name: www.example.com, pools: [www]}
              - {name: "*.cdn.example.com", pools: [web-cdn, www]}
            """;

    private Path config(String yaml) throws Exception {
        return ConfigLoaderTest.config(dir, yaml);
    }

    @Test
    void aCnamePoolAndAWildcardWideIpLoad() throws Exception {
        GslbConfig c = ConfigLoader.load(config(GOOD));
        WideIpSpec wild = c.wideIps().get(1);
        assertThat(wild.name()).isEqualTo(Name.fromString("*.cdn.example.com."));
        PoolSpec cdn = wild.pools().getFirst();
        assertThat(cdn.cnames())
                .extracting(t -> t.name() + " " + t.ratio())
                .containsExactly("web.cdn-provider.example. 1", "web2.cdn-provider.example. 2");
        assertThat(cdn.methods()).containsExactly("ratio", "none", "none");
        assertThat(cdn.ttl()).isEqualTo(20);
        Authority authority = c.authority(ConfigLoader.UNBOUND_METHODS);
        assertThat(authority.wideIp(Name.fromString("a.b.cdn.example.com.")).name())
                .isEqualTo(Name.fromString("*.cdn.example.com."));
        assertThat(authority.wideIp(Name.fromString("www.example.com.")).name())
                .isEqualTo(Name.fromString("www.example.com."));
    }

    @Test
    void aCnamePoolsDefaultIsRoundRobin() throws Exception {
        GslbConfig c = ConfigLoader.load(config(GOOD.replace("    preferred: ratio\n", "")));
        assertThat(c.wideIps().get(1).pools().getFirst().methods()).containsExactly("round-robin", "none", "none");
    }

    /** {@link #GOOD} with {@code from} replaced by {@code to} is refused with a message that starts {@code file + at}. */
    private void refused(String from, String to, String at) throws Exception {
        Path p = config(GOOD.replace(from, to));
        assertThatThrownBy(() -> ConfigLoader.load(p)).hasMessageStartingWith(p + at);
    }

    @Test
    void methodsThatNeedServerStateAreRefusedAtTheirKey() throws Exception {
        refused(
                "preferred: ratio",
                "preferred: topology",
                ":11:5: pool web-cdn is a CNAME pool: its members are names, with no health, data center, path or"
                        + " load, so topology cannot choose among them");
        refused("preferred: ratio", "alternate: lowest-round-trip-time", ":11:5: pool web-cdn is a CNAME pool");
    }

    @Test
    void keysForAddressesTypesAndBadNamesAreRefusedAtTheirLine() throws Exception {
        refused("ttl: 20s", "fallback-ip: [192.0.2.1]", ":12:5: pool web-cdn is a CNAME pool: fallback-ip");
        refused("type: cname", "type: mx", ":9:5: pool type must be address");
        refused(
                "web.cdn-provider.example.,",
                "\"bad..name\",",
                ":10:15: pool web-cdn: member bad..name is not a domain name");
        refused(
                "members: [vs1]",
                "members: [{name: vs1, ratio: 2}]",
                ":7:39: a virtual server's ratio is set on the virtual server");
    }

    @Test
    void aWildcardBelowADelegationIsRefused() throws Exception {
        refused(
                "\"*.cdn.example.com\"",
                "\"*.sub.example.com\"",
                ":15:5: wildcard wide IP *.sub.example.com. is at or below a delegation");
    }
}
