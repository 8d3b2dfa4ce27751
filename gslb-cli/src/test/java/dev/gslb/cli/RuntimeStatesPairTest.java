package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runtime states across a real pair on loopback: a server disabled on A stops being answered by B
 * within one heartbeat, and comes back when enabled (ten times: the figures are printed, not
 * asserted); B, stopped while A changed the states, takes them when it is back; the pair's
 * generations agree in `gslb config status`.
 */
class RuntimeStatesPairTest extends LoopbackPair {
    static final Duration HEARTBEAT = ConfigSyncTest.HEARTBEAT;

    Path file(String name, String dc) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        if (!Files.exists(d.resolve("example.com.zone"))) {
            Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        }
        Path f = d.resolve("gslb.yaml");
        Files.writeString(
                f, LoopbackConfig.local(name, dc, 0, (int) HEARTBEAT.toSeconds()) + LoopbackConfig.shared(""));
        return f;
    }

    TopologyCommandTest.Run on(GslbServer s, String name, String... args) {
        return on(dir, s, name, args);
    }

    /** `gslb ARGS` against {@code s}, whose configuration is in {@code dir/name}, with its token. */
    static TopologyCommandTest.Run on(Path dir, GslbServer s, String name, String... args) {
        System.setProperty(
                "gslb.token-file", dir.resolve(name + "/var/admin.token").toString());
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--admin";
        all[args.length + 1] = Isolated.adminUrl(s);
        return TopologyCommandTest.gslb(all);
    }

    void pair() throws Exception {
        ConfigSyncTest.pair(a, b);
    }

    static boolean answers(GslbServer s, String address) {
        return ConfigSyncTest.answers(s, "www.example.com.", address);
    }

    @Test
    void aServerDisabledOnOneIsTakenOutOnBothWithinAHeartbeat() throws Exception {
        Path fa = file("gslb-a", "CNC");
        Path fb = file("gslb-b", "TEL");
        a = ConfigSyncTest.start(fa);
        b = ConfigSyncTest.start(fb);
        pair();
        assertThat(answers(b, "127.0.1.1")).isTrue();

        List<Long> millis = new ArrayList<>();
        for (int run = 0; run < 10; run++) {
            TopologyCommandTest.Run off = on(a, "gslb-a", "disable", "vs", "cnc", "--reason", "run " + run);
            assertThat(off.exit()).as(off.err()).isZero();
            long t = System.nanoTime();
            Awaits.until("B answers TEL within one heartbeat", HEARTBEAT, () -> answers(b, "127.0.1.2"));
            millis.add((System.nanoTime() - t) / 1_000_000);
            assertThat(answers(a, "127.0.1.2")).isTrue();
            assertThat(on(a, "gslb-a", "enable", "vs", "cnc").exit()).isZero();
            Awaits.until("B answers CNC again", HEARTBEAT, () -> answers(b, "127.0.1.1"));
        }
        Collections.sort(millis);
        System.out.printf(
                "a server disabled on A was no longer answered by B after: median %d ms, max %d ms over 10 runs"
                        + " (heartbeat %d ms; includes one DNS query's round trip)%n",
                (millis.get(4) + millis.get(5)) / 2, millis.getLast(), HEARTBEAT.toMillis());
        Awaits.until(
                "both at generation 20",
                HEARTBEAT,
                () -> on(b, "gslb-b", "config", "status").out().contains("generation 20 from gslb-a"));

        // B stops; A drains TEL's server; B comes back and takes it from A's snapshot
        b.close();
        b = null;
        assertThat(on(a, "gslb-a", "drain", "vs", "tel", "--reason", "while B was away")
                        .exit())
                .isZero();
        b = ConfigSyncTest.start(fb);
        Awaits.until(
                "B took the drain",
                Duration.ofSeconds(10),
                () -> on(b, "gslb-b", "maintenance").out().contains("while B was away"));
        assertThat(on(b, "gslb-b", "health").out()).contains("drained by local at");
    }
}
