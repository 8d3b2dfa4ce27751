package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.server.GslbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maintenance on one real server, through the commands and the admin API: a disabled server is no
 * longer answered and `gslb health` and `gslb maintenance` say who disabled it and why; an unknown
 * name gets near matches; emptying a pool asks for --force; the states survive a restart, are kept
 * mode 600, and a corrupt state file is set aside while the server starts with everything enabled.
 */
class MaintenanceTest {
    @TempDir
    Path dir;

    GslbServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    Path file() throws Exception {
        Path f = dir.resolve("gslb.yaml");
        if (!Files.exists(f)) {
            Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
            Files.writeString(f, LoopbackConfig.local("a", "CNC") + LoopbackConfig.shared(""));
        }
        return f;
    }

    void start() throws Exception {
        server = ConfigSyncTest.start(file());
        System.setProperty("gslb.token-file", dir.resolve("var/admin.token").toString());
    }

    TopologyCommandTest.Run gslb(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--admin";
        all[args.length + 1] = Isolated.adminUrl(server);
        return TopologyCommandTest.gslb(all);
    }

    boolean answers(String address) {
        return ConfigSyncTest.answers(server, "www.example.com.", address);
    }

    @Test
    void disableDrainEnableThroughTheCommands() throws Exception {
        start();
        assertThat(answers("127.0.1.1")).as("CNC first (global availability)").isTrue();
        TopologyCommandTest.Run off = gslb("disable", "vs", "cnc", "--reason", "kernel upgrade");
        assertThat(off.exit()).as(off.err()).isZero();
        assertThat(off.out()).contains("vs cnc: enabled -> disabled", "answers in the last minute");
        assertThat(answers("127.0.1.2")).as("TEL now").isTrue();
        TopologyCommandTest.Run health = gslb("health");
        assertThat(health.out()).as(health.err()).contains("disabled by local at", "kernel upgrade");
        assertThat(gslb("maintenance").out()).contains("vs", "cnc", "disabled", "kernel upgrade");
        assertThat(gslb("resolve", "www.example.com", "--ldns", "198.18.0.53", "--explain")
                        .out())
                .contains("disabled by local at");

        TopologyCommandTest.Run last = gslb("drain", "datacenter", "TEL");
        assertThat(last.exit()).isEqualTo(1);
        assertThat(last.err()).contains("pool www has no enabled member left", "--force");
        assertThat(answers("127.0.1.2")).as("nothing changed").isTrue();
        assertThat(gslb("drain", "dc", "TEL", "--force").out()).contains("warning: forced");

        assertThat(gslb("enable", "vs", "cnc").out()).contains("vs cnc: disabled -> enabled");
        assertThat(gslb("enable", "datacenter", "TEL").exit()).isZero();
        assertThat(answers("127.0.1.1")).isTrue();
        assertThat(gslb("enable", "vs", "cnc").out()).contains("was already enabled");
    }

    @Test
    void anUnknownNameGetsNearMatches() throws Exception {
        start();
        TopologyCommandTest.Run r = gslb("disable", "vs", "cnn");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no vs named cnn; did you mean cnc");
        assertThat(gslb("disable", "pool", "nope").err()).contains("no pool named nope; known: www");
        assertThat(gslb("disable", "rack", "x").err()).contains("kind must be one of");
        assertThat(gslb("disable", "vs", "v".repeat(256)).err()).contains("a name of at most 255 characters");
        assertThat(gslb("disable", "vs", "cnc", "--reason", "ok\n2026 forged").err())
                .contains("a reason without control characters");
        assertThat(gslb("disable", "wideip", "www.example.com", "--for", "-1").exit())
                .isNotZero();
    }

    @Test
    void statesSurviveARestartAndACorruptFileIsSetAside() throws Exception {
        start();
        assertThat(gslb("disable", "member", "www/cnc", "--for", "1h").exit()).isZero();
        server.close();
        Path states = dir.resolve("runtime-states.json"); // beside the peers file: the state folder
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(states)))
                .isEqualTo("rw-------");
        start();
        assertThat(answers("127.0.1.2")).as("still disabled after the restart").isTrue();
        assertThat(gslb("maintenance").out()).contains("www/cnc", "disabled");
        server.close();

        Files.writeString(states, "{\"generation\": 3, \"states\": [{\"kind\": \"vs\"");
        start();
        assertThat(answers("127.0.1.1")).as("everything enabled").isTrue();
        try (var aside = Files.list(dir)) {
            assertThat(aside.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("runtime-states.json.corrupt-"));
        }
        assertThat(gslb("disable", "vs", "tel").exit())
                .as("and takes changes again")
                .isZero();
    }
}
