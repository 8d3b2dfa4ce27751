package dev.gslb.cli;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lowers the CPU priority of serve's JIT compiler threads to nice 5 (Linux). While the server
 * starts on two cores, the C1 and C2 compilers and the AOT cache's training replay took a core
 * between them and the main thread got about half of the other; at nice 5 the start's own work
 * goes first and the compilations fill the gaps (docs/benchmarks.md). Started, they idle; under
 * full load they get a quarter of a busy core instead of half. A compiler thread the JVM adds
 * later is started by one of them and inherits its nice value. Without privileges a nice value
 * can only be raised, so this is for good. The JVM's own flags for it
 * (-XX:ThreadPriorityPolicy=1) warn at every start not run as root and reprioritise its other
 * threads too.
 */
final class JitPriority {
    static final int NICE = 5;
    private static final int PRIO_PROCESS = 0;

    private JitPriority() {}

    /** In the background: the first native call links the FFM machinery, which the main thread need not wait for. */
    static void lowerSoon() {
        Thread.ofPlatform().daemon().name("jit-priority").start(() -> renice(NICE));
    }

    /**
     * Sets the compiler threads' nice value now (a lower one than they have only with privileges: a
     * test's JVM, run as root, is given back its compilers); where it cannot (not Linux, no /proc),
     * does nothing.
     */
    static void renice(int nice) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            MethodHandle setpriority = null;
            for (Path task : tasks) {
                if (!isCompiler(comm(task))) {
                    continue;
                }
                if (setpriority == null) {
                    Linker linker = Linker.nativeLinker();
                    setpriority = linker.downcallHandle(
                            linker.defaultLookup().findOrThrow("setpriority"),
                            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
                }
                int unused = (int) setpriority.invokeExact(
                        PRIO_PROCESS, Integer.parseInt(task.getFileName().toString()), nice);
            }
        } catch (Throwable e) { // no /proc, no libc: the compilers keep the default priority
        }
    }

    /** A thread's name as the kernel keeps it; empty for one that ended since the folder was listed. */
    private static String comm(Path task) {
        try {
            return Files.readString(task.resolve("comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** "C1 CompilerThread0", "C2 CompilerThread1" (15 characters in comm), "Training replay". */
    static boolean isCompiler(String comm) {
        return comm.startsWith("C1 CompilerThre")
                || comm.startsWith("C2 CompilerThre")
                || comm.equals("Training replay");
    }
}
