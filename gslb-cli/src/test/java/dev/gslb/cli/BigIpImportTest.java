package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.gslb.config.ConfigLoader;
import dev.gslb.server.GslbServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * `gslb import bigip` on F5 configurations written for these tests from F5's documented tmsh
 * syntax (src/test/resources/bigip): each is imported, checked, served by a real server, and
 * `gslb resolve` gives, for the resolvers written beside it (NAME.expect), the answer F5's methods
 * give. Servers the fixture's HTTP lines name are served for real, so their monitors pass and the
 * others' fail.
 */
class BigIpImportTest {
    private static final Path FIXTURES = Path.of("src/test/resources/bigip");
    private static final Pattern ANSWER = Pattern.compile("(?m)^answer: (?:A|AAAA|CNAME) (\\S+)");

    @TempDir
    Path dir;

    record Expected(String name, String type, String ldns, Set<String> answers, int line) {}

    @ParameterizedTest
    @ValueSource(strings = {"cnc-tel", "regions", "cname", "monitors", "unsupported"})
    void importedConfigurationIsServedAndAnswersAsF5Would(String fixture) throws Exception {
        Path conf = FIXTURES.resolve(fixture + ".conf");
        TopologyCommandTest.Run run = TopologyCommandTest.gslb(
                "import",
                "bigip",
                conf.toString(),
                "--out",
                dir.toString(),
                "--topology-data",
                "../topology-data/china-operator-ip");
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("config check: OK");
        String report = Files.readString(dir.resolve("import-report.txt"));
        System.out.println(fixture + ":\n" + report.lines().limit(20).reduce("", (a, b) -> a + b + "\n"));
        for (String line : report.lines().skip(1).toList()) {
            if (!line.startsWith("total") && !line.matches("^\\S+\\s+\\d+\\s+\\d+\\s+\\d+$")) {
                assertThat(line)
                        .as("every line names the file and line")
                        .matches(Pattern.quote(conf.toString()) + ":\\d+: .*");
            }
        }
        List<HttpServer> web = new ArrayList<>();
        List<Expected> expected = new ArrayList<>();
        List<String> lines = Files.readAllLines(FIXTURES.resolve(fixture + ".expect"), StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String[] w = lines.get(i).trim().split("\\s+");
            if (w[0].isEmpty() || w[0].startsWith("#")) {
                continue;
            }
            if (w[0].equals("http")) {
                web.add(web(w[1]));
                continue;
            }
            expected.add(new Expected(
                    w[0],
                    w[1],
                    w[2],
                    Arrays.stream(w[3].split("\\|"))
                            .map(BigIpImportTest::canonical)
                            .collect(java.util.stream.Collectors.toSet()),
                    i + 1));
        }
        GslbServer server = new GslbServer(Isolated.of(ConfigLoader.load(dir.resolve("gslb.yaml"))));
        try {
            server.start();
            for (Expected e : expected) {
                assertAnswers(server, e, fixture);
            }
        } finally {
            server.close();
            web.forEach(h -> h.stop(0));
        }
    }

    /** Asked until the answer is the expected one (monitors take their first verdict), then three times more. */
    private static void assertAnswers(GslbServer server, Expected e, String fixture) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<String> got = List.of();
        int agreeing = 0;
        while (agreeing < 4 && System.nanoTime() < deadline) {
            TopologyCommandTest.Run r = TopologyCommandTest.gslb(
                    "resolve", e.name(), "--ldns", e.ldns(), "--type", e.type(), "--admin", Isolated.adminUrl(server));
            assertThat(r.exit()).as(r.err()).isZero();
            got = new ArrayList<>();
            Matcher m = ANSWER.matcher(r.out());
            while (m.find()) {
                got.add(canonical(m.group(1)));
            }
            boolean ok = e.answers().contains("-")
                    ? got.isEmpty()
                    : !got.isEmpty() && e.answers().containsAll(got);
            agreeing = ok ? agreeing + 1 : 0;
            if (!ok) {
                Thread.sleep(200);
            }
        }
        assertThat(agreeing)
                .as(
                        "%s.expect:%d: %s %s asked by %s: expected %s, got %s",
                        fixture, e.line(), e.name(), e.type(), e.ldns(), e.answers(), got)
                .isEqualTo(4);
    }

    /** An address in one spelling (resolve prints IPv6 in full); a name as it is. */
    private static String canonical(String answer) {
        return answer.matches("[0-9a-fA-F:.]+") && answer.contains(":")
                ? InetAddress.ofLiteral(answer).getHostAddress()
                : answer;
    }

    private static HttpServer web(String hostPort) throws Exception {
        int colon = hostPort.lastIndexOf(':');
        HttpServer h = HttpServer.create(
                new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                16);
        h.createContext("/", x -> {
            byte[] body = "OK\n".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        h.start();
        return h;
    }

    @Test
    void theReportNamesWhatIsNotSupportedAndWhy() throws Exception {
        TopologyCommandTest.Run run = TopologyCommandTest.gslb(
                "import", "bigip", FIXTURES.resolve("unsupported.conf").toString(), "--dry-run");
        assertThat(run.exit()).as(run.err()).isZero();
        String f = FIXTURES.resolve("unsupported.conf") + ":";
        assertThat(run.out())
                .contains(
                        f + "4: ltm ltm virtual /Common/vs_http: not supported: not a gtm object",
                        f + "19: rule geo_rule: not supported: gtm rule has no counterpart here (iRules are not run)",
                        "monitor kind snmp has no counterpart here",
                        "limit-max-connections 5000: a limit here needs where the server's load is read",
                        "monitor 'min 1 of /Common/mon_snmp /Common/mon_bigip': ours needs every monitor to pass",
                        "pool busy: different: load-balancing-mode least-connections: least-connections reads each"
                                + " member's load",
                        "pool mail: not supported: pool type mx",
                        "shop?.example.com: ours takes a wildcard only as a whole first label",
                        "ttl-persistence 864000: ours keeps at most 7d",
                        "rules (iRules): not run here",
                        "wide IP type srv",
                        "member 'not subnet 10.0.0.0/8'",
                        "LDNS side 'state CN/Beijing'",
                        "server side 'region'",
                        "topology-longest-match no",
                        "depends-on /Common/bigip1:vs9: not an imported virtual server",
                        "closes a cycle of dependencies",
                        "dry run: nothing written")
                .containsPattern("(?m)^total\\s+\\d+\\s+\\d+\\s+\\d+$");
        assertThat(Files.exists(Path.of("bigip-import")))
                .as("a dry run writes nothing")
                .isFalse();
    }

    @Test
    void malformedInputIsRefusedWithFileAndLine() throws Exception {
        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, "gtm datacenter /Common/dc1 {\n}\ngtm pool a /Common/p {\n    members {\n");
        TopologyCommandTest.Run run = TopologyCommandTest.gslb(
                "import", "bigip", bad.toString(), "--out", dir.resolve("o").toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains(bad + ":4: '{' is never closed");
        assertThat(Files.exists(dir.resolve("o"))).isFalse();
        Path huge = dir.resolve("huge.conf");
        try (var f = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(1L << 30); // 1 GiB, sparse: refused before it is read
        }
        run = TopologyCommandTest.gslb("import", "bigip", huge.toString(), "--dry-run");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains(huge + ":1: larger than 64 MiB");
        Files.writeString(bad, "gtm x " + "{ ".repeat(100) + "}".repeat(100) + "\n");
        run = TopologyCommandTest.gslb("import", "bigip", bad.toString(), "--dry-run");
        assertThat(run.err()).contains(bad + ":1: blocks nested deeper than 32");
        assertThat(Arrays.asList(run.exit())).containsExactly(1);
    }

    @Test
    void regionsNamingEachOtherManyTimesOverAreExpandedOnce() throws Exception {
        StringBuilder f = new StringBuilder("gtm datacenter /Common/dc1 { }\n");
        for (int r = 0; r < 15; r++) { // each region names the next four times: 4^15 if expanded naively
            f.append("gtm region /Common/r").append(r).append(" {\n    region-members {\n");
            for (int k = 0; k < 4; k++) {
                f.append("        region /Common/r").append(r + 1).append(" { }\n");
            }
            f.append("    }\n}\n");
        }
        f.append("gtm region /Common/r15 {\n    region-members {\n        subnet 10.0.0.0/8 { }\n    }\n}\n");
        f.append("""
                gtm server /Common/s { datacenter /Common/dc1
                    virtual-servers {
                        v {
                            destination 127.0.70.1:http
                        }
                    }
                }
                gtm pool a /Common/p {
                    members {
                        /Common/s:v { }
                    }
                }
                gtm wideip a /Common/www.example.com {
                    pools {
                        /Common/p { }
                    }
                }
                gtm topology ldns: region /Common/r0 server: datacenter /Common/dc1 {
                    score 100
                }
                """);
        Path conf = dir.resolve("fan.conf");
        Files.writeString(conf, f);
        TopologyCommandTest.Run run = TopologyCommandTest.gslb(
                "import", "bigip", conf.toString(), "--out", dir.resolve("o").toString());
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(Files.readString(dir.resolve("o/bigip.topology"))).contains("dc.\"dc1\" 10.0.0.0/8 100");
        assertThat(Files.readString(dir.resolve("o/gslb.yaml")))
                .contains("address: 127.0.70.1"); // port "http" read as 80
    }

    @Test
    void filesAroundTheImportAreCheckedAndAProgramOfTheOperatorIsNeverReplaced() throws Exception {
        Path conf = FIXTURES.resolve("monitors.conf");
        TopologyCommandTest.Run run = TopologyCommandTest.gslb("import", "bigip", dir.toString(), "--dry-run");
        assertThat(run.err()).contains(dir + ":1: not a regular file");
        run = TopologyCommandTest.gslb(
                "import",
                "bigip",
                conf.toString(),
                "--zone",
                dir.resolve("nope.zone").toString());
        assertThat(run.err()).contains("nope.zone: --zone names no zone file");
        Path out = dir.resolve("out");
        run = TopologyCommandTest.gslb("import", "bigip", conf.toString(), "--out", out.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        Path program = out.resolve("monitor-programs/check_app.sh");
        assertThat(Files.readString(program)).contains("stand-in");
        Files.writeString(program, "#!/bin/sh\nexit 0\n"); // the operator copied F5's program
        run = TopologyCommandTest.gslb("import", "bigip", conf.toString(), "--out", out.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("exists (an earlier import?): give --force");
        run = TopologyCommandTest.gslb("import", "bigip", conf.toString(), "--out", out.toString(), "--force");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("kept " + program);
        assertThat(Files.readString(program)).isEqualTo("#!/bin/sh\nexit 0\n");
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".bigip-import-"));
    }
}
