package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class JitPriorityTest {
    @Test
    void theCompilerThreadsOfThisJvmAreNicedAndNoOtherThread() throws IOException {
        List<Map.Entry<String, Integer>> threads;
        try {
            JitPriority.renice(JitPriority.NICE);
            threads = threadsAndNice();
        } finally {
            JitPriority.renice(0); // the module's other tests compile at the default priority (CI runs as root)
        }
        List<Map.Entry<String, Integer>> compilers =
                threads.stream().filter(t -> JitPriority.isCompiler(t.getKey())).toList();
        assertThat(compilers).isNotEmpty();
        assertThat(compilers)
                .allSatisfy(t -> assertThat(t.getValue()).as(t.getKey()).isEqualTo(JitPriority.NICE));
        assertThat(nice(Path.of("/proc/thread-self"))).as("this test's thread").isZero();
    }

    @Test
    void tellsTheCompilersByTheirKernelNames() {
        assertThat(JitPriority.isCompiler("C1 CompilerThre")).isTrue();
        assertThat(JitPriority.isCompiler("C2 CompilerThre")).isTrue();
        assertThat(JitPriority.isCompiler("Training replay")).isTrue();
        assertThat(JitPriority.isCompiler("main")).isFalse();
        assertThat(JitPriority.isCompiler("dns-udp-53-0")).isFalse();
        assertThat(JitPriority.isCompiler("GC Thread#0")).isFalse();
    }

    /** Each thread's name (comm) and nice value, a pair per thread (several share a name). */
    private static List<Map.Entry<String, Integer>> threadsAndNice() throws IOException {
        List<Map.Entry<String, Integer>> threads = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                threads.add(Map.entry(Files.readString(task.resolve("comm")).strip(), nice(task)));
            }
        }
        return threads;
    }

    /** The 19th field of a thread's stat, counted after its name in brackets (which may hold spaces). */
    private static int nice(Path task) throws IOException {
        String stat = Files.readString(task.resolve("stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
    }
}
