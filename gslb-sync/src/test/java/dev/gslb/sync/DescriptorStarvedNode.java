package dev.gslb.sync;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * A sync node in a JVM of its own (for {@link SyncAcceptLoopTest}): once it listens, with a
 * pairing waiting, it lowers its own descriptor limit to what it has open plus a few, so that
 * connections held against it make accept fail with EMFILE. It answers "status" on standard input
 * with its accept errors, listener failures and open descriptors.
 */
final class DescriptorStarvedNode {
    static final int HEADROOM = 16;
    private static final int RLIMIT_NOFILE = 7; // Linux
    private static final ClassLoader LOADER = DescriptorStarvedNode.class.getClassLoader();

    private DescriptorStarvedNode() {}

    public static void main(String[] args) throws Throwable {
        Path dir = Path.of(args[0]);
        try (Node a = Node.tweaked(
                "a",
                "CNC",
                "127.0.0.2",
                dir,
                s -> PeerSyncTest.withLimits(s, Duration.ofSeconds(60), new SyncPortLimits(1000, 1000, 1000, 4)))) {
            String token = a.sync.pair(List.of()).token();
            int classes = loadClassesOfDirectories();
            int open = openDescriptors();
            lowerDescriptorLimit(open + HEADROOM);
            System.out.println("ready " + a.sync.listening().getFirst().getPort() + " " + token + " " + open + " "
                    + (open + HEADROOM) + " " + classes);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null && line.equals("status"); ) {
                System.out.println("status "
                        + (long) a.registry.counter("sync_accept_errors").count() + " "
                        + a.sync.listenerFailures().size() + " " + openDescriptors());
            }
        }
    }

    /**
     * Loads every class the classpath's directories hold (the modules' target/classes): installed,
     * they come from jars already open, but here a class first needed while no descriptor is left
     * could not be read, and the JVM remembers that failure for good.
     */
    private static int loadClassesOfDirectories() throws IOException {
        int loaded = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path root = Path.of(entry);
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    String name = root.relativize(f).toString().replace(File.separatorChar, '.');
                    try {
                        Class.forName(name.substring(0, name.length() - ".class".length()), false, LOADER);
                        loaded++;
                    } catch (ClassNotFoundException | LinkageError notNeeded) {
                        // a class whose dependencies are not on this classpath is not on the sync path either
                    }
                }
            }
        }
        return loaded;
    }

    static int openDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    /** setrlimit(RLIMIT_NOFILE, {n, n}) through the FFM API: what `ulimit -n` does, once the JVM is up. */
    private static void lowerDescriptorLimit(long n) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle setrlimit = linker.downcallHandle(
                linker.defaultLookup().find("setrlimit").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limit = arena.allocate(16);
            limit.set(JAVA_LONG, 0, n);
            limit.set(JAVA_LONG, 8, n);
            if ((int) setrlimit.invokeExact(RLIMIT_NOFILE, limit) != 0) {
                throw new IllegalStateException("setrlimit failed");
            }
        }
    }
}
