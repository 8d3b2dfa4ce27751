package dev.gslb.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.SharedConfig;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import dev.gslb.sync.ConfigExchange;
import dev.gslb.sync.ConfigVersion;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A compromised peer, over real sync: instance A's side of the configuration exchange is
 * replaced by one that offers crafted shared configurations, and B, a real server paired with it
 * over TLS, is the target. Whatever A sends, B reads no file outside the bundle A sent and tells
 * A nothing of its own files, runs no program but those of its own monitor-programs folder, and
 * passes no shell code of A's on an alert program's command line; each refusal is seen on both
 * sides and B's configuration stays in service.
 */
class CompromisedPeerTest extends LoopbackPair {
    static final Duration LIMIT = Duration.ofSeconds(20);
    static final String ZONE = "files/zones/0/example.com.zone";

    final Attacker attacker = new Attacker();

    /** What A offers (set by the test), and every state B tells A back. */
    static final class Attacker implements ConfigExchange {
        private volatile Offer offer;
        private long generation;
        final List<Offer> heard = new CopyOnWriteArrayList<>();

        ConfigVersion offer(String yaml, Map<String, String> files) {
            TreeMap<String, byte[]> bytes = new TreeMap<>();
            files.forEach((name, text) -> bytes.put(name, text.getBytes(UTF_8)));
            SharedConfig content = new SharedConfig(yaml, bytes);
            ConfigVersion v = new ConfigVersion(++generation, "gslb-a", content.digest());
            offer = new Offer(v, true, null, "", content.zip());
            return v;
        }

        @Override
        public Offer current() {
            return offer;
        }

        @Override
        public void received(String peer, Offer o) {
            heard.add(o);
        }

        String refusalOf(ConfigVersion v) {
            return heard.stream()
                    .filter(o -> v.equals(o.refused()))
                    .map(Offer::refusal)
                    .findFirst()
                    .orElse(null);
        }

        /** Every text B sent A. */
        String everything() {
            return String.join("\n", heard.stream().map(Offer::refusal).toList());
        }
    }

    /** A (the attacker) and B (with {@code localOfB} in its own part), paired and connected. */
    void pair(String localOfB) throws Exception {
        Path fa = file("gslb-a", "CNC", "");
        Path fb = file("gslb-b", "TEL", localOfB);
        GslbServer s = new GslbServer(ConfigLoader.load(fa));
        s.sync().exchangeConfig(attacker);
        s.start();
        a = s;
        b = ConfigSyncTest.start(fb);
        b.sync().join(a.sync().pair(List.of()).token());
        Awaits.until("A and B connected", LIMIT, () -> ConfigSyncTest.connected(a) && ConfigSyncTest.connected(b));
    }

    Path file(String name, String dc, String local) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        Path f = d.resolve("gslb.yaml");
        Files.writeString(
                f,
                LoopbackConfig.local(name, dc, 0, (int) ConfigSyncTest.HEARTBEAT.toSeconds())
                        + local
                        + LoopbackConfig.shared(""));
        return f;
    }

    /** The usual shared part as a bundle names its zone file, with {@code extra} appended. */
    static String shared(String extra) {
        return LoopbackConfig.shared(extra).replace("file: example.com.zone", "file: " + ZONE);
    }

    /** The shared part with its one zone's file named {@code name}. */
    static String zoneAt(String name) {
        return shared("").replace("{file: " + ZONE + "}", "{file: \"" + name + "\", origin: example.com}");
    }

    /** The shared part with server cnc watched by an external monitor running {@code command} every second. */
    static String monitored(String command) {
        return shared("monitors:\n  - {name: probe, type: external, command: " + command + ", interval: 1s}\n")
                .replace("datacenter: CNC}", "datacenter: CNC, monitors: [probe]}");
    }

    static boolean holds(Path file, String text) {
        try {
            return Files.isRegularFile(file) && Files.readString(file).contains(text);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static Map<String, String> zoneFile() throws Exception {
        return Map.of(ZONE, Files.readString(Path.of("../zones/example.com.zone")));
    }

    /** A sends {@code yaml} with {@code files}; B's refusal, once A has heard it. */
    String refused(String yaml, Map<String, String> files) throws Exception {
        ConfigVersion v = attacker.offer(yaml, files);
        a.sync().publishConfig();
        Awaits.until("B refuses generation " + v, LIMIT, () -> attacker.refusalOf(v) != null);
        return attacker.refusalOf(v);
    }

    String refusedHere() {
        return ConfigSyncTest.status(b).refused();
    }

    @Test
    void aPeerReadsNoFileOfThisHostAndLearnsNothingOfIt() throws Exception {
        pair("");
        Path tokenFile = dir.resolve("gslb-b/var/admin.token").toAbsolutePath();
        String token = AdminToken.read(tokenFile);
        ConfigVersion served = b.syncGroup().version();
        Map<String, String> zone = zoneFile();
        String includes = zone.get(ZONE) + "$INCLUDE " + tokenFile + "\n";
        record Attack(String yaml, Map<String, String> files, String key, String name) {}
        List<Attack> attacks = List.of(
                new Attack(
                        shared("topology: {data: [\"" + tokenFile + "\"]}\n"),
                        zone,
                        "topology.data[0]",
                        tokenFile.toString()),
                new Attack(
                        shared("topology: {data: [../gslb-b/var/admin.token]}\n"),
                        zone,
                        "topology.data[0]",
                        "../gslb-b/var/admin.token"),
                new Attack(
                        shared("topology: {data: [var/admin.token]}\n"), zone, "topology.data[0]", "var/admin.token"),
                new Attack(
                        shared("topology: {data: [files/../../../var/admin.token]}\n"),
                        zone,
                        "topology.data[0]",
                        "files/../../../var/admin.token"),
                new Attack(zoneAt(tokenFile.toString()), Map.of(), "zones[0].file", tokenFile.toString()),
                new Attack(
                        zoneAt("files/../../../var/admin.token"),
                        zone,
                        "zones[0].file",
                        "files/../../../var/admin.token"),
                new Attack(shared(""), Map.of(ZONE, includes), "$INCLUDE", ""));
        for (Attack attack : attacks) {
            String refusal = refused(attack.yaml(), attack.files());
            assertThat(refusal)
                    .as("what A hears for " + attack)
                    .contains(attack.key())
                    .contains(attack.name())
                    .doesNotContain(token);
            assertThat(refusedHere())
                    .as("B's config status")
                    .contains(attack.key())
                    .doesNotContain(token);
            assertThat(b.syncGroup().version()).as("B keeps its configuration").isEqualTo(served);
            assertThat(ConfigSyncTest.answers(b, "www.example.com.", "127.0.1.1"))
                    .isTrue();
        }
        assertThat(attacker.everything()).doesNotContain(token);
    }

    @Test
    void aPeerRunsNoProgramButThoseOfThisHostsFolder() throws Exception {
        Path mark =
                Files.createDirectories(dir.resolve("gslb-b/monitor-programs")).resolve("mark");
        Files.writeString(mark, "#!/bin/sh\ntouch \"$1\"\n");
        assertThat(mark.toFile().setExecutable(true)).isTrue();
        Path log = dir.resolve("alerts.log");
        pair("alerts: [{on: [peer-lost], exec: [sh, -c, \"echo {event} >> " + log + "\"]}]\n");
        Path evil = dir.resolve("evil");
        String run = "[sh, -c, \"touch " + evil + "\"]";
        ConfigVersion served = b.syncGroup().version();
        Map<String, String> attacks = new java.util.LinkedHashMap<>(); // what A sends -> why B refuses it
        attacks.put(monitored(run), "monitor probe: no program sh in the monitor-programs folder");
        attacks.put(monitored(run.replace("[sh", "[/bin/sh")), "monitor probe: '/bin/sh' is not a program name");
        attacks.put(monitored(run.replace("[sh", "[../../../../bin/sh")), "'../../../../bin/sh' is not a program name");
        attacks.put(monitored(run.replace("[sh", "[mark/../../sh")), "'mark/../../sh' is not a program name");
        attacks.put("monitor-programs: /bin\n" + monitored(run), "'monitor-programs' is not a shared section");
        attacks.put(
                shared("alerts: [{on: [peer-lost, server-down], exec: " + run + "}]\n"),
                "'alerts' is not a shared section");
        for (var attack : attacks.entrySet()) {
            assertThat(refused(attack.getKey(), zoneFile())).as(attack.getKey()).contains(attack.getValue());
            assertThat(refusedHere()).contains(attack.getValue());
            assertThat(b.syncGroup().version()).as("B keeps its configuration").isEqualTo(served);
        }
        // the same peer's monitor naming a program of B's folder is taken, and runs there
        Path allowed = dir.resolve("allowed");
        ConfigVersion ok = attacker.offer(monitored("[mark, \"" + allowed + "\"]"), zoneFile());
        a.sync().publishConfig();
        Awaits.until("B runs mark of its own folder", LIMIT, () -> Files.exists(allowed));
        assertThat(b.syncGroup().version()).isEqualTo(ok);
        assertThat(ConfigSyncTest.answers(b, "www.example.com.", "127.0.1.1")).isTrue();
        // B's own alert program runs when A goes away; the one A sent does not
        a.close();
        a = null;
        Awaits.until("B's own alert program tells peer-lost", LIMIT, () -> holds(log, "peer-lost"));
        assertThat(evil).as("no program A named ran on B").doesNotExist();
    }

    @Test
    void aNameAPeerChoseIsNoShellCodeOnAnAlertProgramsCommandLine() throws Exception {
        Path log = dir.resolve("alerts.log");
        pair("alerts: [{on: [server-down], exec: [sh, -c, \"echo {subject} >> " + log + "\"]}]\n");
        int closed;
        try (ServerSocket free = new ServerSocket(0)) {
            closed = free.getLocalPort();
        }
        Path evil = dir.resolve("evil");
        String name = "cnc;touch${IFS}" + evil;
        String yaml = shared("monitors:\n  - {name: closed, type: tcp, port: " + closed + ", interval: 1s, down: 1}\n")
                .replace("{name: cnc,", "{name: \"" + name + "\", monitors: [closed],")
                .replace("members: [cnc, tel]", "members: [\"" + name + "\", tel]");
        ConfigVersion v = attacker.offer(yaml, zoneFile());
        a.sync().publishConfig();
        // B's own servers may go down first and be told of too: the line that counts names A's server
        Awaits.until(
                "B serves A's configuration",
                LIMIT,
                () -> v.equals(b.syncGroup().version()));
        Awaits.until("B tells server-down of the server A named", LIMIT, () -> holds(log, "cnc_touch__IFS__"));
        assertThat(evil).as("the name ran as no shell code on B").doesNotExist();
    }
}
