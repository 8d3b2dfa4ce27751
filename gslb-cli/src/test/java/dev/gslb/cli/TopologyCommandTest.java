package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.server.GslbServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `gslb topology ...` against a running server's admin API, as an operator types it. */
class TopologyCommandTest {
    private static GslbServer server;
    private static String admin;

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    @BeforeAll
    static void start() throws Exception {
        server = Isolated.started();
        admin = Isolated.adminUrl(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static synchronized Run gslb(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int exit = Gslb.commandLine().execute(args);
            return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void lookupShowsRegionPrefixAndScores() {
        Run r = gslb("topology", "lookup", "61.136.178.229", "--admin", admin);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("region chinanet", "prefix 61.136.128.0/17", "TEL", "<- answer");
        Run json = gslb("topology", "lookup", "202.106.0.20", "--admin", admin, "--json");
        assertThat(json.out()).contains("\"region\" : \"unicom\"", "\"best\" : \"CNC\"");
        assertThat(gslb("topology", "lookup", "8.8.8.8", "--admin", admin).out())
                .contains("no match");
    }

    @Test
    void lookupWorksWithNoServerFromADataFolder() {
        Run r = gslb("topology", "lookup", "--data", "../topology-data/china-operator-ip", "202.106.0.20");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("region unicom", "CNC");
    }

    @Test
    void listShowsRegionsCountsAndRecords() {
        Run r = gslb("topology", "list", "--admin", admin);
        assertThat(r.out()).containsPattern("chinanet\\s+4164\\s+321").containsPattern("unicom\\s+3894\\s+1085");
        assertThat(r.out()).contains("chinanet             -> TEL");
        assertThat(gslb("topology", "list", "--admin", admin, "--json").out()).contains("\"records\"", "\"warnings\"");
    }

    @Test
    void aBadLoadChangesNothingAndAGoodOneIsServedAtOnce() throws Exception {
        Path bad = dir.resolve("cmcc.txt");
        Files.writeString(bad, "198.18.0.0/15\n198.18.0.7/15\n");
        Run refused = gslb("topology", "load", bad.toString(), "--admin", admin);
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains(bad.toAbsolutePath() + ":2: '198.18.0.7/15' has host bits set");
        assertThat(gslb("topology", "lookup", "2409:8000::1", "--admin", admin).out())
                .as("cmcc untouched")
                .contains("region cmcc");

        Path good = dir.resolve("lab.txt");
        Files.writeString(good, "198.18.0.0/15\n");
        Run loaded = gslb("topology", "load", good.toString(), "--region", "lab", "--admin", admin);
        assertThat(loaded.exit()).isZero();
        assertThat(loaded.out()).contains("lab", "1 prefixes");
        assertThat(gslb("topology", "lookup", "198.18.3.4", "--admin", admin).out())
                .contains("region lab");
        assertThat(gslb("topology", "reload", "--admin", admin).exit()).isZero();
        assertThat(gslb("topology", "lookup", "198.18.3.4", "--admin", admin).out())
                .contains("region lab");
    }

    @Test
    void anUnreachableServerIsSaidPlainly() {
        Run r = gslb("topology", "list", "--admin", "http://127.0.0.1:1");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("cannot reach the admin API");
    }
}
