package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import dev.gslb.settings.SettingsException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * Two real servers on loopback, paired over the sync channel as a sync group: a wide IP added on
 * A is answered by B within one heartbeat; a bad change is refused on A and nothing reaches B; a
 * change B cannot take is refused there and A is told; B restarted while A changed things serves
 * what it had, then catches up; changes made on both at once converge on one of them; `config
 * status` and `config diff` say so on both sides, and a stopped peer is unknown, not in sync.
 */
class ConfigSyncTest extends LoopbackPair {
    static final Duration HEARTBEAT = Duration.ofSeconds(2);

    static String shared(String extra) {
        return LoopbackConfig.shared(extra);
    }

    Path file(String name, String dc, int syncPort, String shared) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        if (!Files.exists(d.resolve("example.com.zone"))) {
            Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        }
        Path f = d.resolve("gslb.yaml");
        Files.writeString(f, LoopbackConfig.local(name, dc, syncPort, (int) HEARTBEAT.toSeconds()) + shared);
        return f;
    }

    static GslbServer start(Path file) throws Exception {
        GslbConfig c = ConfigLoader.load(file);
        GslbServer s = new GslbServer(c);
        s.reloadFrom(() -> ConfigLoader.load(file));
        s.start();
        s.proximityRead().get(30, TimeUnit.SECONDS); // its log line is not printed into a command's output
        return s;
    }

    static Message ask(GslbServer s, String name) throws Exception {
        SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
        r.setTimeout(Duration.ofSeconds(2));
        return r.send(Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN)));
    }

    static boolean answers(GslbServer s, String name, String address) {
        try {
            return ask(s, name).getSection(Section.ANSWER).stream()
                    .anyMatch(r -> r.rdataToString().equals(address));
        } catch (Exception e) {
            return false;
        }
    }

    /** True once {@code s} has heard from {@code peer} after {@code t}. */
    static boolean heardAfter(GslbServer s, String peer, Instant t) {
        return s.sync().status().stream()
                .anyMatch(p -> p.name().equals(peer)
                        && p.lastHeartbeat() != null
                        && Instant.parse(p.lastHeartbeat()).isAfter(t));
    }

    static dev.gslb.api.ConfigStatus status(GslbServer s) {
        return s.syncGroup().status(s.sync().status());
    }

    static boolean inSync(GslbServer x, GslbServer y) {
        return x.syncGroup().version().equals(y.syncGroup().version())
                && status(x).inSync()
                && status(y).inSync();
    }

    /** Pairs A and B and waits until each side's own connection to the other is up (items flow both ways). */
    void pair() throws Exception {
        pair(a, b);
    }

    static void pair(GslbServer a, GslbServer b) throws Exception {
        String token = a.sync().pair(List.of()).token();
        b.sync().join(token);
        Awaits.until("A and B connected", Duration.ofSeconds(10), () -> connected(a) && connected(b));
    }

    /** A from {@code fa} and B from {@code fb}, paired. */
    void startPaired(Path fa, Path fb) throws Exception {
        a = start(fa);
        b = start(fb);
        pair();
    }

    static boolean connected(GslbServer s) {
        return !s.sync().status().isEmpty()
                && s.sync().status().stream().allMatch(p -> p.state().equals("connected"));
    }

    static int syncPort(GslbServer s) {
        return s.sync().listening().getFirst().getPort();
    }

    @Test
    void aChangeOnOneIsServedByBothAndSurvivesARestart() throws Exception {
        Path fa = file("gslb-a", "CNC", 0, shared(""));
        Path fb = file("gslb-b", "TEL", 0, shared(""));
        startPaired(fa, fb);
        Awaits.until(
                "two files alike: the same digest, generation 0 on both", Duration.ofSeconds(10), () -> inSync(a, b));
        assertThat(a.syncGroup().version().generation()).isZero();

        // a wide IP added on A: B answers it within one heartbeat
        assertThat(ask(b, "api2.example.com.").getRcode()).isEqualTo(Rcode.NXDOMAIN);
        Files.writeString(fa, Files.readString(fa) + """
                  - {name: api2.example.com, pools: [www]}
                """);
        assertThat(a.reload().generation()).isEqualTo(1);
        long added = System.nanoTime();
        Awaits.until(
                "B answers the new wide IP within one heartbeat",
                HEARTBEAT,
                () -> answers(b, "api2.example.com.", "127.0.1.1"));
        System.out.printf(
                "a wide IP added on A was answered by B after %d ms (heartbeat %d ms)%n",
                (System.nanoTime() - added) / 1_000_000, HEARTBEAT.toMillis());
        // B serves the change before it records its version (applied first, then named): a moment apart
        Awaits.until(
                "B naming A's version",
                HEARTBEAT,
                () -> b.syncGroup().version().equals(a.syncGroup().version()));
        assertThat(b.syncGroup().version().origin()).isEqualTo("gslb-a");

        // a bad change on A: refused there, nothing changes on either
        String good = Files.readString(fa);
        Files.writeString(fa, good.replace("members: [cnc, tel]", "members: [cnc, nobody]"));
        assertThatThrownBy(() -> a.reload())
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("nobody");
        Instant refused = Instant.now(); // then each side hears from the other: whatever A sent before has arrived
        Awaits.until(
                "B hearing from A after the refused change",
                HEARTBEAT.multipliedBy(3),
                () -> heardAfter(b, "gslb-a", refused));
        Awaits.until(
                "A hearing from B after the refused change",
                HEARTBEAT.multipliedBy(3),
                () -> heardAfter(a, "gslb-b", refused));
        assertThat(a.syncGroup().version().generation()).isEqualTo(1);
        assertThat(b.syncGroup().version().generation()).isEqualTo(1);
        assertThat(answers(b, "www.example.com.", "127.0.1.1")).isTrue();

        // a change A accepts but B cannot (B's own data center, TEL, is gone): B refuses, A is told
        Files.writeString(
                fa,
                good.replace("datacenters: [CNC, TEL]", "datacenters: [CNC]")
                        .replace("  - {name: tel, address: 127.0.1.2, datacenter: TEL}\n", "")
                        .replace("members: [cnc, tel]", "members: [cnc]"));
        assertThat(a.reload().generation()).isEqualTo(2);
        Awaits.until(
                "A told B refused generation 2",
                Duration.ofSeconds(10),
                () -> status(a).peers().getFirst().refusedOurs() != null);
        assertThat(status(a).peers().getFirst().refusedOurs()).contains("TEL");
        assertThat(status(a).inSync()).isFalse();
        assertThat(b.syncGroup().version().generation())
                .as("B keeps generation 1 in service")
                .isEqualTo(1);
        assertThat(answers(b, "api2.example.com.", "127.0.1.1")).isTrue();
        assertThat(a.syncGroup().drift()).contains("gslb-b refused generation 2");

        // A puts it right (generation 3); then B stops, A changes again (generation 4), B comes back
        Files.writeString(fa, good);
        assertThat(a.reload().generation()).isEqualTo(3);
        Awaits.until("A and B in sync on generation 3", Duration.ofSeconds(10), () -> inSync(a, b));
        int bPort = syncPort(b);
        b.close();
        Files.writeString(fa, good + """
                  - {name: api3.example.com, pools: [www]}
                """);
        assertThat(a.reload().generation()).isEqualTo(4);
        Files.writeString(
                fb,
                Files.readString(fb).replace("127.0.0.1:0\"], peers-file", "127.0.0.1:" + bPort + "\"], peers-file"));
        // the same file (but for its port) as before: B serves generation 3 it kept, not its older file
        GslbServer restarted = new GslbServer(ConfigLoader.load(fb));
        assertThat(restarted.syncGroup().version().generation()).isEqualTo(3);
        assertThat(restarted.authority().wideIps()).hasSize(2);
        b = restarted;
        b.reloadFrom(() -> ConfigLoader.load(fb));
        b.start();
        Awaits.until(
                "B catches up on reconnect",
                Duration.ofSeconds(15),
                () -> answers(b, "api3.example.com.", "127.0.1.1"));
        Awaits.until(
                "B names generation 4 once it serves it",
                HEARTBEAT,
                () -> b.syncGroup().version().generation() == 4);

        // B's own file, still generation 0's text, reloaded: not a change, generation 4 stays
        assertThat(b.reload().generation()).isEqualTo(4);
        assertThat(answers(b, "api3.example.com.", "127.0.1.1")).isTrue();

        // changes made on both at once converge on one of them, the same on both sides
        String current = Files.readString(fa);
        Files.writeString(fa, current + "  - {name: from-a.example.com, pools: [www]}\n");
        Files.writeString(
                fb,
                Files.readString(fb).substring(0, Files.readString(fb).indexOf("zones:"))
                        + current.substring(current.indexOf("zones:"))
                        + "  - {name: from-b.example.com, pools: [www]}\n");
        var ra = CompletableFuture.supplyAsync(() -> reloaded(a));
        var rb = CompletableFuture.supplyAsync(() -> reloaded(b));
        ra.join();
        rb.join();
        Awaits.until("both serve one configuration", Duration.ofSeconds(10), () -> inSync(a, b));
        boolean fromA = answers(a, "from-a.example.com.", "127.0.1.1");
        boolean fromB = answers(a, "from-b.example.com.", "127.0.1.1");
        assertThat(fromA ^ fromB).as("one of the two changes, not a mix").isTrue();
        assertThat(answers(b, "from-a.example.com.", "127.0.1.1")).isEqualTo(fromA);
        assertThat(answers(b, "from-b.example.com.", "127.0.1.1")).isEqualTo(fromB);
    }

    private static long reloaded(GslbServer s) {
        try {
            return s.reload().generation();
        } catch (SettingsException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anInstanceThatOptedOutNeitherTakesNorGives() throws Exception {
        Path fa = file("gslb-a", "CNC", 0, shared(""));
        Path fb = file("gslb-b", "TEL", 0, "config: {sync: false}\n" + shared(""));
        startPaired(fa, fb);
        Files.writeString(fa, Files.readString(fa) + "  - {name: api2.example.com, pools: [www]}\n");
        assertThat(a.reload().generation()).isEqualTo(1);
        Awaits.until(
                "B knowing A's generation 1",
                Duration.ofSeconds(10),
                () -> status(b).peers().stream().anyMatch(p -> Long.valueOf(1).equals(p.generation())));
        assertThat(answers(b, "api2.example.com.", "127.0.1.1"))
                .as("B opted out")
                .isFalse();
        assertThat(status(b).sync()).isFalse();
        assertThat(status(b).inSync()).isFalse();
        assertThat(b.syncGroup().diff("gslb-a", 50))
                .anyMatch(l -> l.startsWith("+") && l.contains("api2.example.com"))
                .anyMatch(l -> l.startsWith("--- shared.yaml"));
    }

    /** `gslb config SUB ARGS` against {@code s}'s admin API, with its token. */
    static TopologyCommandTest.Run config(GslbServer s, Path file, String... args) throws Exception {
        System.setProperty(
                "gslb.token-file", ConfigLoader.load(file).admin().tokenFile().toString());
        List<String> all = new ArrayList<>(List.of("config"));
        all.addAll(List.of(args));
        all.addAll(List.of("--admin", "http://" + s.admin().address()));
        return TopologyCommandTest.gslb(all.toArray(String[]::new));
    }

    /** A peer's line of `gslb config status`. */
    static String peerLine(TopologyCommandTest.Run status, String peer) {
        return status.out()
                .lines()
                .filter(l -> l.startsWith(peer + " "))
                .findFirst()
                .orElseThrow();
    }

    /**
     * `gslb config status` and `gslb config diff` on both sides, as the operator runs them: a
     * change made on A differs in nothing on either side once B serves it (A compared with B's
     * content from before the change); B stopped is "unknown since" on A and the pair is not in
     * sync; B restarted catches up and both say in sync again.
     */
    @Test
    void diffAndStatusOnBothSidesThroughAChangeAStopAndARestart() throws Exception {
        Path fa = file("gslb-a", "CNC", 0, shared(""));
        Path fb = file("gslb-b", "TEL", 0, shared(""));
        startPaired(fa, fb);
        Awaits.until("A and B in sync", Duration.ofSeconds(10), () -> inSync(a, b));

        // a change on A: once B serves it, neither side shows a difference
        Files.writeString(fa, Files.readString(fa) + "  - {name: api2.example.com, pools: [www]}\n");
        assertThat(a.reload().generation()).isEqualTo(1);
        Awaits.until("B serving generation 1", Duration.ofSeconds(10), () -> inSync(a, b));
        saysInSync(a, fa, "gslb-b", 1);
        saysInSync(b, fb, "gslb-a", 1);
        assertThat(config(b, fb, "show").out())
                .as("B runs A's generation, not its own file")
                .startsWith("# gslb-b: configuration generation 1 from gslb-a")
                .contains("- name: api2.example.com");

        // B stopped: A does not know what B serves, and says since when
        int bPort = syncPort(b);
        b.close();
        b = null;
        Awaits.until("A's connection to B down", Duration.ofSeconds(10), () -> !connected(a));
        TopologyCommandTest.Run status = config(a, fa, "status");
        assertThat(peerLine(status, "gslb-b"))
                .contains("unknown since ", "unreachable, last heard ")
                .doesNotContain("in sync");
        assertThat(status.out()).contains("NOT in sync: not connected to gslb-b");
        TopologyCommandTest.Run json = config(a, fa, "status", "--json");
        assertThat(json.out()).contains("\"inSync\" : false", "\"connected\" : false");
        TopologyCommandTest.Run stale = config(a, fa, "diff", "gslb-b");
        assertThat(stale.out()).contains("gslb-b is not connected (unknown since ");

        // a change while B is down; B restarted (on its port) catches up and both say in sync
        Files.writeString(fa, Files.readString(fa) + "  - {name: api3.example.com, pools: [www]}\n");
        assertThat(a.reload().generation()).isEqualTo(2);
        assertThat(config(a, fa, "diff", "gslb-b").out().lines())
                .as("against what B served when last heard")
                .anyMatch(l -> l.startsWith("-") && l.contains("api3.example.com"));
        Files.writeString(
                fb,
                Files.readString(fb).replace("127.0.0.1:0\"], peers-file", "127.0.0.1:" + bPort + "\"], peers-file"));
        b = start(fb);
        Awaits.until(
                "B back and serving generation 2",
                Duration.ofSeconds(15),
                () -> connected(a)
                        && connected(b)
                        && inSync(a, b)
                        && b.syncGroup().version().generation() == 2);
        saysInSync(a, fa, "gslb-b", 2);
        saysInSync(b, fb, "gslb-a", 2);
    }

    /** `config status` on {@code s} says {@code peer} serves {@code generation}, in sync; `config diff` shows nothing. */
    static void saysInSync(GslbServer s, Path file, String peer, long generation) throws Exception {
        TopologyCommandTest.Run status = config(s, file, "status");
        assertThat(peerLine(status, peer)).as(peer).contains(" " + generation + " ", "in sync");
        assertThat(status.out().lines()).contains("in sync").noneMatch(l -> l.contains("NOT"));
        assertThat(config(s, file, "diff", peer).out()).isEqualTo("the same configuration as " + peer + "\n");
    }

    static String answerFrom(GslbServer s, String source, String name) throws Exception {
        SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
        r.setLocalAddress(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
        r.setTimeout(Duration.ofSeconds(2));
        return r.send(Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN)))
                .getSection(Section.ANSWER)
                .getFirst()
                .rdataToString();
    }

    /** Round robin alone would alternate; with a persistence-ttl both instances answer the network alike. */
    @Test
    void persistenceIsSharedSoBothAnswerANetworkAlike() throws Exception {
        String shared = shared("")
                .replace("members: [cnc, tel]}", "members: [cnc, tel], preferred: round-robin}")
                .replace("pools: [www]}", "pools: [www], persistence-ttl: 10m}");
        a = start(file("gslb-a", "CNC", 0, shared));
        b = start(file("gslb-b", "TEL", 0, shared));
        pair();
        Awaits.until("A and B in sync", Duration.ofSeconds(10), () -> inSync(a, b));
        for (int net = 60; net < 64; net++) {
            String first = answerFrom(a, "127.0." + net + ".1", "www.example.com.");
            for (int i = 0; i < 3; i++) {
                assertThat(answerFrom(a, "127.0." + net + "." + (2 + i), "www.example.com."))
                        .as("the same /24 on A")
                        .isEqualTo(first);
            }
            // B may answer the network before A's entry arrives: the two then settle on one server
            // (the lesser name, on both), so the test waits for agreement, not for A's first pick
            int n = net;
            Awaits.until("B and A answering the network alike", Duration.ofSeconds(5), () -> {
                try {
                    return answerFrom(b, "127.0." + n + ".9", "www.example.com.")
                            .equals(answerFrom(a, "127.0." + n + ".10", "www.example.com."));
                } catch (Exception e) {
                    return false;
                }
            });
            String agreed = answerFrom(a, "127.0." + net + ".11", "www.example.com.");
            for (int i = 0; i < 4; i++) {
                assertThat(answerFrom(b, "127.0." + net + "." + (20 + i), "www.example.com."))
                        .as("B answers the network as A does")
                        .isEqualTo(agreed);
            }
        }
    }

    /** A list loaded at run time on A is served by B, and both still have it after a restart. */
    @Test
    void aTopologyLoadIsSharedAndKept() throws Exception {
        Path fa = file("gslb-a", "CNC", 0, shared(""));
        a = start(fa);
        b = start(file("gslb-b", "TEL", 0, shared("")));
        pair();
        Path list = dir.resolve("lab.txt");
        Files.writeString(list, "198.18.64.0/18\n");
        System.setProperty(
                "gslb.token-file", ConfigLoader.load(fa).admin().tokenFile().toString());
        TopologyCommandTest.Run load = TopologyCommandTest.gslb(
                "topology",
                "load",
                list.toString(),
                "--admin",
                "http://" + a.admin().address());
        assertThat(load.exit()).as(load.err()).isZero();
        assertThat(a.syncGroup().version().generation()).isEqualTo(1);
        Awaits.until(
                "B serving the loaded list",
                Duration.ofSeconds(5),
                () -> b.topology().table().lookup(InetAddress.ofLiteral("198.18.64.1")) != null);
        assertThat(b.topology()
                        .table()
                        .lookup(InetAddress.ofLiteral("198.18.64.1"))
                        .region())
                .isEqualTo("lab");
        a.close();
        a = start(fa);
        assertThat(a.topology().table().lookup(InetAddress.ofLiteral("198.18.64.1")))
                .as("kept in the state folder across a restart")
                .isNotNull();
        assertThat(a.syncGroup().version().generation()).isEqualTo(1);
    }
}
