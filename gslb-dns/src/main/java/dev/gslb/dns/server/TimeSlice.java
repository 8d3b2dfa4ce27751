package dev.gslb.dns.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DNS threads' request to Linux for a short scheduler time slice: 0.2 ms instead of the
 * default (1.4 ms on a 2-core host), through sched_setattr's sched_runtime for a SCHED_OTHER
 * thread (the EEVDF scheduler, Linux 6.12 and later). A thread with a shorter slice than the one
 * running may preempt it when it wakes; with the default, a query that arrives while a JIT
 * compiler thread, a busy TCP thread or another process holds the core waits out that one's
 * slice, or until the next tick: 2-6 ms on a 2-core VM in the first seconds after a start, the
 * JIT's busiest (bench/first-contact.sh; docs/benchmarks.md). The thread's share of the CPU is
 * unchanged (same nice, same weight): it only gets it sooner, in shorter turns. Older kernels
 * keep their own slice, and the request changes nothing; a thread an operator put under another
 * policy (chrt) is left as it is.
 */
final class TimeSlice {
    static final long NANOS = 200_000;
    private static final Logger log = LoggerFactory.getLogger(TimeSlice.class);
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;
    /** struct sched_attr as of its first version: size, policy, flags, nice, priority, runtime, deadline, period. */
    private static final int ATTR_SIZE = 48;

    private static final long POLICY = 4;
    private static final long FLAGS = 8;
    private static final long RUNTIME = 24;

    private static final MethodHandle SYSCALL_3;
    private static final MethodHandle SYSCALL_4;
    private static final long SETATTR;
    private static final long GETATTR;

    static {
        long set = -1;
        long get = -1;
        MethodHandle three = null;
        MethodHandle four = null;
        if (LinuxPlatform.SUPPORTED) {
            set = LinuxPlatform.X86_64 ? 314 : 274;
            get = set + 1;
            try {
                // glibc before 2.41 has no sched_setattr: the system call itself, through syscall(2)
                Linker linker = Linker.nativeLinker();
                MemorySegment syscall = linker.defaultLookup().find("syscall").orElseThrow();
                Linker.Option variadic = Linker.Option.firstVariadicArg(1);
                three = linker.downcallHandle(
                        syscall, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG), variadic);
                four = linker.downcallHandle(
                        syscall,
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
                        variadic);
            } catch (RuntimeException | LinkageError e) {
                three = null;
                four = null;
            }
        }
        SYSCALL_3 = three;
        SYSCALL_4 = four;
        SETATTR = set;
        GETATTR = get;
    }

    private final AtomicBoolean told = new AtomicBoolean();

    /** Whether the call is linked on this platform; the first use links it ({@link DnsServer#linkNatives()}). */
    static boolean available() {
        return SYSCALL_3 != null;
    }

    /** Asks for the calling thread; the first outcome is logged (once per server). Never throws. */
    void requestForCurrentThread() {
        String outcome = request();
        if (told.compareAndSet(false, true)) {
            log.info("DNS threads: {}", outcome);
        }
    }

    /** What became of the request, in the operator's words. */
    static String request() {
        if (!available()) {
            return "the system's default scheduler slice (no sched_setattr on this platform)";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ATTR_SIZE, 8);
            if ((long) SYSCALL_4.invokeExact(GETATTR, 0L, attr, (long) ATTR_SIZE, 0L) != 0) {
                return "the system's default scheduler slice (sched_getattr failed)";
            }
            int policy = attr.get(JAVA_INT, POLICY);
            if (policy != SCHED_OTHER && policy != SCHED_BATCH) {
                return "scheduling policy " + policy + " left as it is";
            }
            long before = attr.get(JAVA_LONG, RUNTIME);
            attr.set(JAVA_INT, 0, ATTR_SIZE);
            attr.set(JAVA_LONG, FLAGS, 0L); // nice (and policy) as they are: an operator's nice stays
            attr.set(JAVA_LONG, RUNTIME, NANOS);
            if ((long) SYSCALL_3.invokeExact(SETATTR, 0L, attr, 0L) != 0) {
                return "the system's default scheduler slice (sched_setattr refused)";
            }
            if ((long) SYSCALL_4.invokeExact(GETATTR, 0L, attr, (long) ATTR_SIZE, 0L) != 0
                    || attr.get(JAVA_LONG, RUNTIME) != NANOS) {
                return "the kernel's own scheduler slice (a custom slice needs Linux 6.12 or later)";
            }
            return "a " + NANOS / 1000 + " µs scheduler slice (was " + before / 1000 + " µs)";
        } catch (Throwable e) {
            return "the system's default scheduler slice (" + e + ")";
        }
    }
}
