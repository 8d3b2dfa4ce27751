package dev.gslb.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool rules as operators write them: a pool's min-up-members and min-up-action, a wide IP's
 * pools with their ratios, its pool-method and last-resort pool; each mistake named at its
 * file:line:column.
 */
class PoolRulesConfigTest {
    @TempDir
    Path dir;

    /** ConfigLoaderTest's configuration with a third server, three pools and a wide IP using the rules. */
    private static final String RULES =
            ConfigLoaderTest.GOOD.substring(0, ConfigLoaderTest.GOOD.indexOf("pools:\n")) + """
              - {name: vs3, address: 198.18.0.10, datacenter: TEL}
            pools:
              - {name: web, members: [vs1, vs2], min-up-members: 2, min-up-action: fail}
              - {name: dr, members: [vs3]}
              - {name: sorry, members: [vs3]}
            wide-ips:
              - name: www.example.com
                pools: [{name: web, ratio: 3}, dr]
                pool-method: ratio
                last-resort: sorry
            """;

    private Path config(String yaml) throws Exception {
        Files.copy(
                Path.of("../zones/example.com.zone"),
                dir.resolve("example.com.zone"),
                StandardCopyOption.REPLACE_EXISTING);
        Path p = dir.resolve("gslb.yaml");
        Files.writeString(p, yaml);
        return p;
    }

    private WideIp wideIp(String yaml) throws Exception {
        return ConfigLoader.load(config(yaml)).wideIps().getFirst().build(ConfigLoader.UNBOUND_METHODS);
    }

    @Test
    void poolRulesRatiosAndTheLastResortBind() throws Exception {
        WideIp w = wideIp(RULES);
        assertThat(w.poolMethod()).isEqualTo(WideIp.PoolMethod.RATIO);
        assertThat(w.pools()).extracting(Pool::name).containsExactly("web", "dr", "sorry");
        assertThat(w.ratios()).containsExactly(3, 1, 0);
        assertThat(w.lastResortPool().name()).isEqualTo("sorry");
        Pool web = w.pools().getFirst();
        assertThat(web.minUpMembers()).isEqualTo(2);
        assertThat(web.minUpAction()).isEqualTo(Pool.MinUpAction.FAIL);
        Pool dr = w.pools().get(1);
        assertThat(dr.minUpMembers()).as("no minimum unless written").isZero();
        assertThat(dr.minUpAction()).isEqualTo(Pool.MinUpAction.NEXT_POOL);
    }

    @Test
    void aLastResortAlsoListedStaysWhereItIsListedAndPlainNamesHaveRatioOne() throws Exception {
        WideIp w = wideIp(RULES.replace("[{name: web, ratio: 3}, dr]", "[sorry, web]")
                .replace("pool-method: ratio", "pool-method: topology"));
        assertThat(w.pools()).extracting(Pool::name).containsExactly("sorry", "web");
        assertThat(w.lastResort()).isZero();
        assertThat(w.ratios()).containsExactly(1, 1);
        assertThat(w.poolMethod()).isEqualTo(WideIp.PoolMethod.TOPOLOGY);
        WideIp plain = wideIp(RULES.replace("    pool-method: ratio\n", "").replace("    last-resort: sorry\n", ""));
        assertThat(plain.poolMethod()).isEqualTo(WideIp.PoolMethod.GLOBAL_AVAILABILITY);
        assertThat(plain.lastResortPool()).isNull();
    }

    @Test
    void aPeerLoadsTheSameRulesFromTheSharedConfiguration() throws Exception {
        GslbConfig c = ConfigLoader.load(config(RULES));
        GslbConfig peer = SharedConfigTest.asPeerLoads(c, dir.resolve("peer"));
        assertThat(peer.wideIps()).isEqualTo(c.wideIps());
        assertThat(peer.wideIps().getFirst().ratios()).containsExactly(3, 1, 0);
    }

    /** The rules with {@code from} written as {@code to} are refused with {@code error} (line:column: message). */
    private void refused(String from, String to, String error) throws Exception {
        assertThat(RULES).contains(from);
        Path p = config(RULES.replace(from, to));
        assertThatThrownBy(() -> ConfigLoader.load(p)).hasMessage(p + ":" + error);
    }

    @Test
    void anUnknownLastResortPoolIsRefusedAtItsKey() throws Exception {
        refused(
                "last-resort: sorry",
                "last-resort: nope",
                "22:5: wide IP www.example.com. names pool nope, which is not defined; defined: [web, dr, sorry]");
    }

    @Test
    void minUpMembersOutOfRangeAndAnUnknownActionAreRefusedAtTheirKeys() throws Exception {
        refused(
                "min-up-members: 2",
                "min-up-members: 3",
                "15:38: pool web has 2 members: min-up-members must be between 0 and 2, not 3");
        refused(
                "min-up-members: 2",
                "min-up-members: -1",
                "15:38: pool web has 2 members: min-up-members must be between 0 and 2, not -1");
        refused(
                "min-up-action: fail",
                "min-up-action: stop",
                "15:57: min-up-action must be next-pool or fail, not 'stop'");
    }

    @Test
    void aNegativeRatioAWrongPoolMethodAndAMistypedPoolEntryAreRefusedAtTheirKeys() throws Exception {
        refused(
                "ratio: 3",
                "ratio: -1",
                "20:25: wide IP www.example.com., pool web: ratio must be between 0 and 1000000, not -1");
        refused(
                "pool-method: ratio",
                "pool-method: ratios",
                "21:5: pool-method must be global-availability, round-robin, ratio or topology, not 'ratios'");
        refused(
                "{name: web, ratio: 3}",
                "{name: web, weight: 3}",
                "20:25: unknown key 'weight' in wide-ips[0].pools[0]; expected one of [name, ratio]");
        refused("{name: web, ratio: 3}", "{ratio: 3}", "20:13: wide IP's pool needs 'name:'");
    }
}
