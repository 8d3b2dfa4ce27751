package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.health.ProtocolCheck;
import dev.gslb.server.GslbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real instances on loopback, paired as a sync group, with an FTP monitor whose password is
 * given by {@code password-file:} and a POP3 monitor whose password is inline. After A's change
 * has reached B, and an admin call was audited, every file under either state folder is 600 and
 * every folder 700; the password given by file is in no file there (the shared copy carries the
 * reference), and B read its own file for it.
 */
class StateFolderModesTest {
    static final Duration HEARTBEAT = ConfigSyncTest.HEARTBEAT;
    static final String FTP_A = "ftp-secret-of-A-7c1e";
    static final String FTP_B = "ftp-secret-of-B-93fd";
    static final String POP3_INLINE = "pop3-inline-0b6a";

    @TempDir
    Path dir;

    static final String MONITORS = """
            monitors:
              - {name: files, type: ftp, user: monitor, password-file: secrets/ftp, interval: 1h}
              - {name: mail, type: pop3, user: monitor, password: %s, interval: 1h}
            """.formatted(POP3_INLINE);

    /** A configuration folder holding its own secret file; the state in var/ as the package lays it out. */
    Path file(String name, String dc, String ftpPassword) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        Path secret = Files.createDirectories(d.resolve("secrets")).resolve("ftp");
        Files.writeString(secret, ftpPassword + "\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path f = d.resolve("gslb.yaml");
        String local = LoopbackConfig.local(name, dc, 0, (int) HEARTBEAT.toSeconds())
                .replace("store: proximity", "store: var/proximity")
                .replace("peers-file: peers", "peers-file: var/peers");
        String shared = LoopbackConfig.shared(MONITORS)
                .replace("datacenter: CNC}", "datacenter: CNC, monitors: [files, mail]}");
        Files.writeString(f, local + shared);
        return f;
    }

    static String ftpPassword(GslbServer s) {
        return s.syncGroup().running().health().stream()
                .flatMap(h -> h.monitors().stream())
                .map(MonitorSpec::check)
                .filter(c -> c instanceof ProtocolCheck p && p.protocol() == ProtocolCheck.Protocol.FTP)
                .map(c -> ((ProtocolCheck) c).password())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void everyFileOfBothStateFoldersIsOwnerOnlyAndTheFilePasswordIsInNone() throws Exception {
        Path fa = file("gslb-a", "CNC", FTP_A);
        Path fb = file("gslb-b", "TEL", FTP_B);
        try (GslbServer a = ConfigSyncTest.start(fa);
                GslbServer b = ConfigSyncTest.start(fb)) {
            assertThat(ftpPassword(a)).isEqualTo(FTP_A);
            assertThat(ftpPassword(b)).isEqualTo(FTP_B);

            ConfigSyncTest.pair(a, b);

            // a change on A travels to B, which keeps A's configuration in its state folder
            String www = "  - {name: www.example.com, pools: [www]}\n";
            Files.writeString(
                    fa, Files.readString(fa).replace(www, www + "  - {name: api2.example.com, pools: [www]}\n"));
            assertThat(a.reload().generation()).isEqualTo(1);
            Awaits.until(
                    "B serving A's generation 1",
                    Duration.ofSeconds(10),
                    () -> b.syncGroup().version().equals(a.syncGroup().version()));
            assertThat(ftpPassword(b))
                    .as("B reads the reference with its own file")
                    .isEqualTo(FTP_B);

            // an audited admin call, and runtime states written on both
            TopologyCommandTest.Run off = on(a, "gslb-a", "disable", "vs", "cnc", "--reason", "modes");
            assertThat(off.exit()).as(off.err()).isZero();
            Awaits.until(
                    "B took the runtime state",
                    Duration.ofSeconds(10),
                    () -> on(b, "gslb-b", "maintenance").out().contains("modes"));
        } // both stopped: what they leave is what is checked

        for (String name : List.of("gslb-a", "gslb-b")) {
            Path state = dir.resolve(name + "/var");
            Map<String, String> modes = modes(state);
            assertThat(modes)
                    .as(name + ": what the state folder holds")
                    .containsKeys(
                            ".",
                            "peers",
                            "sync-identity.pem",
                            "admin.token",
                            "audit.log",
                            "proximity.mv.db",
                            "runtime-states.json",
                            "config",
                            "config/version.json");
            assertThat(modes.keySet()).anyMatch(k -> k.matches("config/shared-[0-9a-f]+/shared\\.yaml"));
            assertThat(modes.keySet()).noneMatch(k -> k.endsWith(".trace.db"));
            modes.forEach(
                    (path, mode) -> assertThat(mode).as(name + "/var/" + path).isIn("rw-------", "rwx------"));
            modes.forEach((path, mode) -> {
                if (Files.isDirectory(state.resolve(path), LinkOption.NOFOLLOW_LINKS)) {
                    assertThat(mode).as(name + "/var/" + path).isEqualTo("rwx------");
                }
            });
            for (String path : modes.keySet()) {
                Path f = state.resolve(path);
                if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                    assertThat(text).as(name + "/var/" + path).doesNotContain(FTP_A, FTP_B);
                }
            }
            String shared = sharedYaml(state);
            assertThat(shared).as("the copy carries the reference").contains("password-file");
            assertThat(shared).contains("secrets/ftp").contains(POP3_INLINE);
        }
        assertThat(Files.readString(dir.resolve("gslb-a/var/audit.log"))).contains("/runtime/disable");
    }

    TopologyCommandTest.Run on(GslbServer s, String name, String... args) {
        return RuntimeStatesPairTest.on(dir, s, name, args);
    }

    /** Every path under {@code state} (itself as "."), links not followed, and its mode. */
    static Map<String, String> modes(Path state) throws Exception {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> all = Files.walk(state)) {
            for (Path p : all.toList()) {
                String name = state.equals(p) ? "." : state.relativize(p).toString();
                modes.put(
                        name,
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)));
            }
        }
        return modes;
    }

    static String sharedYaml(Path state) throws Exception {
        try (Stream<Path> all = Files.walk(state.resolve("config"))) {
            return Files.readString(all.filter(p -> p.getFileName().toString().equals("shared.yaml"))
                    .findFirst()
                    .orElseThrow());
        }
    }
}
