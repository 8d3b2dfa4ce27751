package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The DNS threads' short scheduler slice (Linux 6.12 and later; this host's kernel decides which
 * outcome is expected), read back from /proc, not from what the code believes it asked.
 */
class TimeSliceTest {
    private static final boolean CUSTOM_SLICES = kernelAtLeast(6, 12);

    @Test
    void everyDnsThreadOfARunningServerHasTheShortSlice() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(1)) {
            List<String> seen = new ArrayList<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : tasks.toList()) {
                    String name = read(task.resolve("comm")).strip();
                    if (name.matches("dns-udp-\\d+-\\d+|dns-\\d+-\\d+")) {
                        seen.add(name + " " + slice(task));
                    }
                }
            }
            assertThat(seen).anyMatch(s -> s.startsWith("dns-udp-")); // the UDP listener's thread
            assertThat(seen).anyMatch(s -> s.matches("dns-\\d+-\\d+ .*")); // netty's (TCP) loop
            String expected = CUSTOM_SLICES ? " " + TimeSlice.NANOS : " " + slice(Path.of("/proc/thread-self"));
            assertThat(seen).allMatch(s -> s.endsWith(expected), "each slice is" + expected);
        }
    }

    /** An operator's nice (renice on the thread) is kept: only the slice changes. */
    @Test
    void theThreadsNiceIsKept() throws Exception {
        AtomicReference<String> outcome = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        AtomicReference<String> after = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Path self = Path.of("/proc/thread-self").toRealPath();
                Process renice = new ProcessBuilder(
                                "renice", "-n", "7", "-p", self.getFileName().toString())
                        .redirectErrorStream(true)
                        .start();
                assertThat(renice.waitFor()).isZero();
                outcome.set(TimeSlice.request());
                after.set(nice(self) + " " + slice(self));
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        t.join();
        assertThat(failed.get()).isNull();
        if (CUSTOM_SLICES) {
            assertThat(outcome.get()).startsWith("a 200 µs scheduler slice (was ");
            assertThat(after.get()).isEqualTo("7 " + TimeSlice.NANOS);
        } else {
            assertThat(outcome.get()).contains("Linux 6.12");
            assertThat(after.get()).startsWith("7 ");
        }
    }

    private static String slice(Path task) throws IOException {
        return read(task.resolve("sched"))
                .lines()
                .filter(l -> l.startsWith("se.slice"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip())
                .findFirst()
                .orElse("none");
    }

    /** The 19th field of stat, after the command's closing parenthesis. */
    private static int nice(Path task) throws IOException {
        String stat = read(task.resolve("stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p);
    }

    private static boolean kernelAtLeast(int major, int minor) {
        String[] v = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(v[0]);
        int mi = Integer.parseInt(v[1]);
        return ma > major || (ma == major && mi >= minor);
    }
}
