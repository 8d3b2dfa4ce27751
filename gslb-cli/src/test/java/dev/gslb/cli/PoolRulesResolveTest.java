package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.server.GslbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.Section;

/**
 * A real server with two pools chosen by topology and a last-resort pool: `gslb resolve` shows
 * which pool was tried first and why, real queries get the pools' answers, and with both pools
 * disabled the last resort answers.
 */
class PoolRulesResolveTest {
    @TempDir
    Path dir;

    GslbServer server;

    @BeforeEach
    void start() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path config = dir.resolve("gslb.yaml");
        Files.writeString(config, LoopbackConfig.local("a", "CNC") + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                  - {name: sorry, address: 127.0.1.3, datacenter: TEL}
                pools:
                  - {name: web, members: [cnc], preferred: global-availability}
                  - {name: dr, members: [tel], preferred: global-availability}
                  - {name: sorry, members: [sorry], preferred: global-availability}
                wide-ips:
                  - {name: www.example.com, pools: [web, dr], pool-method: topology, last-resort: sorry}
                topology:
                  records:
                    - {cidr: 198.51.100.0/24, datacenter: TEL, score: 100}
                """);
        server = new GslbServer(Isolated.of(ConfigLoader.load(config)));
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    TopologyCommandTest.Run gslb(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--admin";
        all[args.length + 1] = Isolated.adminUrl(server);
        return TopologyCommandTest.gslb(all);
    }

    String answered() throws Exception {
        Message m = ConfigSyncTest.ask(server, "www.example.com.");
        return ((ARecord) m.getSection(Section.ANSWER).getFirst()).getAddress().getHostAddress();
    }

    @Test
    void resolveShowsThePoolChosenByTopologyAndTheLastResort() throws Exception {
        TopologyCommandTest.Run tel = gslb("resolve", "www.example.com", "--ldns", "198.51.100.7");
        assertThat(tel.exit()).as(tel.err()).isZero();
        assertThat(tel.out())
                .contains(
                        "pool-method",
                        "topology: client in 198.51.100.0/24 (region 198.51.100.0/24): dr first (score 100)",
                        "answer: A 127.0.1.2 (tel in TEL)");
        TopologyCommandTest.Run elsewhere = gslb("resolve", "www.example.com", "--ldns", "192.0.2.7");
        assertThat(elsewhere.out())
                .contains(
                        "topology: the client matches no topology prefix: the pools in order",
                        "answer: A 127.0.1.1 (cnc in CNC)");
        assertThat(answered())
                .as("a real query from 127.0.0.1: no prefix matches")
                .isEqualTo("127.0.1.1");

        for (String pool : new String[] {"web", "dr"}) {
            TopologyCommandTest.Run off = gslb("disable", "pool", pool, "--reason", "test", "--force");
            assertThat(off.exit()).as(off.err()).isZero();
        }
        TopologyCommandTest.Run last = gslb("resolve", "www.example.com", "--ldns", "198.51.100.7");
        assertThat(last.out())
                .contains(
                        "last-resort",
                        "every other pool gave nothing: sorry is tried",
                        "answer: A 127.0.1.3 (sorry in TEL)");
        assertThat(answered()).isEqualTo("127.0.1.3");
    }
}
