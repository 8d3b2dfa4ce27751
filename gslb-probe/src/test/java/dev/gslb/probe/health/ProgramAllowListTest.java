package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An external monitor runs a program of the folder, named by its name, and nothing else. */
class ProgramAllowListTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    /** An external monitor as the configuration binds it: not looked for in the folder yet. */
    static MonitorSpec external(String... command) {
        return new MonitorSpec("m", new ExternalCheck(List.of(command)), TIMEOUT, TIMEOUT, 1, 1);
    }

    /** A program that creates the file its first argument names, and says up. */
    Path marker(Path folder, String name) throws Exception {
        Path p = Files.createDirectories(folder).resolve(name);
        Files.writeString(p, "#!/bin/sh\ntouch \"$1\"\n");
        assertThat(p.toFile().setExecutable(true)).isTrue();
        return p;
    }

    @Test
    void aProgramOfTheFolderRunsByItsName() throws Exception {
        Path folder = dir.resolve("monitor-programs");
        marker(folder, "mark");
        Path ran = dir.resolve("ran-{address}");
        MonitorSpec placed = new ProgramAllowList(folder).place(external("mark", ran.toString()));
        assertThat(((ExternalCheck) placed.check()).program()).isEqualTo(folder.resolve("mark"));
        assertThat(placed.check().run(LOOPBACK, TIMEOUT).ok()).isTrue();
        assertThat(dir.resolve("ran-127.0.0.1")).exists();
    }

    @Test
    void nothingElseRuns() throws Exception {
        Path folder = dir.resolve("monitor-programs");
        Path outside = marker(dir, "outside");
        marker(folder, "mark");
        Files.writeString(folder.resolve("data"), "not a program\n");
        ProgramAllowList list = new ProgramAllowList(folder);
        for (String name :
                List.of(outside.toString(), "sh", "../outside", "mark/../../outside", "..", "-mark", "data")) {
            assertThatThrownBy(() -> list.place(external(name, "x")))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("monitor m: ")
                    .hasMessageContaining(name)
                    .hasMessageContaining("monitor-programs folder " + folder);
        }
        Path ran = dir.resolve("ran");
        CheckResult unplaced =
                external(outside.toString(), ran.toString()).check().run(LOOPBACK, TIMEOUT);
        assertThat(unplaced.ok()).as("a check not found in the folder fails").isFalse();
        assertThat(unplaced.reason()).contains("is not a program of the monitor-programs folder");
        assertThat(ran).as("and runs nothing").doesNotExist();
    }
}
