package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named.conf written for the test (two ACLs of real China operator prefixes, two views, the
 * second also the default) runs in BIND 9 from Debian's bind9 package, in a network namespace
 * whose loopback holds three client addresses: one China Telecom, one China Unicom, one neither
 * (China Mobile). `gslb import bind-views` of the same file must make this server answer each of
 * them as BIND does.
 */
class BindViewsImportTest {
    static final String NS = "gslbt-bind";

    @TempDir
    Path dir;

    Process named;

    @AfterEach
    void stop() throws Exception {
        if (named != null) {
            named.destroy();
            named.waitFor(5, TimeUnit.SECONDS);
        }
        PairAcrossTwoLinksTest.quietly("ip", "netns", "del", NS);
    }

    static List<String> firstPrefixes(String list, int n) throws Exception {
        return Files.readAllLines(Path.of("../topology-data/china-operator-ip/" + list)).stream()
                .filter(l -> !l.isBlank())
                .limit(n)
                .toList();
    }

    /** The first address after a prefix's network address (1.12.16.0/20 -> 1.12.16.1). */
    static String hostIn(String prefix) {
        String net = prefix.substring(0, prefix.indexOf('/'));
        return net.substring(0, net.lastIndexOf('.')) + ".1";
    }

    static String zone(String address) {
        return """
                $TTL 300
                @   IN SOA ns1.example.com. hostmaster.example.com. 1 3600 900 1209600 300
                    IN NS  ns1.example.com.
                ns1 IN A   127.0.0.1
                www IN A   %s
                """.formatted(address);
    }

    @Test
    void theImportedViewsAnswerAsBindDoes() throws Exception {
        List<String> telecom = firstPrefixes("chinanet.txt", 40);
        List<String> unicom = firstPrefixes("unicom.txt", 40);
        List<String> clients = List.of(
                hostIn(telecom.get(5)),
                hostIn(unicom.get(5)),
                hostIn(firstPrefixes("cmcc.txt", 3).get(1)));
        Files.writeString(dir.resolve("tel.zone"), zone("127.0.1.2"));
        Files.writeString(dir.resolve("cnc.zone"), zone("127.0.1.1"));
        Files.writeString(
                dir.resolve("acl-telecom.conf"), "acl \"telecom\" {\n" + String.join(";\n", telecom) + ";\n};\n");
        Path conf = dir.resolve("named.conf");
        Files.writeString(conf, """
                options {
                    directory "%1$s";
                    pid-file "%1$s/named.pid";
                    listen-on port 5300 { 127.0.0.1; };
                    listen-on-v6 { none; };
                    recursion no;
                };
                controls { };
                include "acl-telecom.conf";
                acl "unicom" { %2$s; };
                // China Telecom's resolvers get the TEL address
                view "TEL" {
                    match-clients { telecom; };
                    zone "example.com" { type master; file "%1$s/tel.zone"; };
                };
                // China Unicom's, and everyone else, the CNC address
                view "CNC" {
                    match-clients { unicom; any; };
                    zone "example.com" { type master; file "%1$s/cnc.zone"; };
                };
                """.formatted(dir, String.join("; ", unicom)));

        PairAcrossTwoLinksTest.quietly("ip", "netns", "del", NS);
        PairAcrossTwoLinksTest.sh("ip", "netns", "add", NS);
        PairAcrossTwoLinksTest.sh("ip", "-n", NS, "link", "set", "lo", "up");
        for (String c : clients) {
            PairAcrossTwoLinksTest.sh("ip", "-n", NS, "addr", "add", c + "/32", "dev", "lo");
        }
        named = new ProcessBuilder("ip", "netns", "exec", NS, "named", "-g", "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("named.log").toFile())
                .start();
        Awaits.until("BIND running", Duration.ofSeconds(20), () -> {
            try {
                return Files.readString(dir.resolve("named.log")).contains("running");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(Files.readString(dir.resolve("named.log")))
                .as("BIND started")
                .contains("running");

        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Files.writeString(
                dir.resolve("gslb.yaml"), LoopbackConfig.local("gslb-cnc", "CNC") + LoopbackConfig.shared(""));
        var config = ConfigLoader.load(dir.resolve("gslb.yaml"));
        try (GslbServer s = new GslbServer(config)) {
            s.start();
            String admin = "http://" + s.admin().address();
            System.setProperty("gslb.token-file", config.admin().tokenFile().toString());
            TopologyCommandTest.Run imported =
                    TopologyCommandTest.gslb("import", "bind-views", conf.toString(), "--admin", admin);
            System.out.println(imported.out() + imported.err());
            assertThat(imported.exit()).isZero();
            assertThat(imported.out())
                    .contains("imported 2 view(s)", "view TEL", "-> TEL", "view CNC", "-> CNC")
                    .contains("view CNC matches every other address");
            for (String client : clients) {
                String bind = PairAcrossTwoLinksTest.sh(
                                "ip",
                                "netns",
                                "exec",
                                NS,
                                "dig",
                                "+short",
                                "+time=2",
                                "-b",
                                client,
                                "@127.0.0.1",
                                "-p",
                                "5300",
                                "www.example.com",
                                "A")
                        .strip();
                TopologyCommandTest.Run ours =
                        TopologyCommandTest.gslb("resolve", "www.example.com", "--ldns", client, "--admin", admin);
                System.out.printf(
                        "%-15s BIND %-10s gslb: %s%n",
                        client,
                        bind,
                        ours.out()
                                .lines()
                                .filter(l -> l.contains("answer"))
                                .findFirst()
                                .orElse(ours.out()));
                assertThat(bind).as("BIND answers %s", client).matches("127\\.0\\.1\\.[12]");
                assertThat(ours.out())
                        .as("%s is answered as BIND answers it", client)
                        .contains("answer: A " + bind + " ");
            }
        }
    }
}
