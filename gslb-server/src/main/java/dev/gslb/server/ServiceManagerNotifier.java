package dev.gslb.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells systemd (a unit of {@code Type=notify}) what the server is doing, as sd_notify(3) does:
 * READY=1 once every listener is bound, RELOADING=1 and READY=1 around a reload, STATUS= lines,
 * STOPPING=1. The messages are datagrams to the Unix socket named by $NOTIFY_SOCKET (a path, or
 * an abstract name written with a leading '@'); without it every call does nothing.
 *
 * <p>The JDK's Unix-domain channels are stream-only, so the datagram socket is made through the
 * FFM API (socket and sendto of libc), as {@code NativeUdp} of the DNS listener already does;
 * netty's epoll datagram channel would need an event loop for one datagram now and then. A message
 * that cannot be sent is logged once and otherwise ignored: the server serves either way, and
 * systemd says so itself when READY=1 never comes.
 */
public final class ServiceManagerNotifier implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServiceManagerNotifier.class);

    /** Does nothing: no service manager listens (NOTIFY_SOCKET unset, tests, the CLI). */
    public static final ServiceManagerNotifier NONE = new ServiceManagerNotifier(null);

    private static final int AF_UNIX = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int MSG_NOSIGNAL = 0x4000;
    /** struct sockaddr_un: sa_family_t then char sun_path[108]. */
    private static final int SUN_PATH = 108;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private final String socket;
    private MethodHandle sendto;
    private MethodHandle close;
    private int fd = -1;
    private boolean failed;

    private ServiceManagerNotifier(String socket) {
        this.socket = socket;
    }

    /** The service manager of $NOTIFY_SOCKET, or {@link #NONE}. */
    public static ServiceManagerNotifier fromEnvironment() {
        return at(System.getenv("NOTIFY_SOCKET"));
    }

    /** The service manager listening on {@code socket} (a path, or '@' and an abstract name); null or empty: none. */
    public static ServiceManagerNotifier at(String socket) {
        return socket == null || socket.isEmpty() ? NONE : new ServiceManagerNotifier(socket);
    }

    /** Every listener is bound and the server answers. */
    public void ready(String status) {
        send("READY=1\nSTATUS=" + oneLine(status));
    }

    /**
     * A reload starts: systemd keeps the unit "reloading" until the next {@link #ready}. The
     * monotonic time (CLOCK_MONOTONIC, which System.nanoTime reads on Linux) tells it which
     * reload request this answers.
     */
    public void reloading() {
        send("RELOADING=1\nMONOTONIC_USEC=" + System.nanoTime() / 1000 + "\nSTATUS=reloading the configuration");
    }

    /** What `systemctl status` shows on its "Status:" line. */
    public void status(String status) {
        send("STATUS=" + oneLine(status));
    }

    public void stopping() {
        send("STOPPING=1\nSTATUS=stopping");
    }

    /** A STATUS value is one line: a newline would start another assignment. */
    private static String oneLine(String s) {
        return s.replaceAll("[\\p{Cntrl}]", " ");
    }

    /** Sends one datagram; false when there is no service manager or it could not be sent. */
    synchronized boolean send(String message) {
        if (socket == null || failed) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(CAPTURE);
            if (fd < 0) {
                open(err);
            }
            MemorySegment address = address(arena);
            byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
            MemorySegment data = arena.allocateFrom(JAVA_BYTE, bytes);
            long sent = (long) sendto.invokeExact(
                    err, fd, data, (long) bytes.length, MSG_NOSIGNAL, address, (int) address.byteSize());
            if (sent < 0) {
                throw new IllegalStateException("sendto: errno " + (int) ERRNO.get(err, 0L));
            }
            return true;
        } catch (Throwable t) {
            failed = true; // said once; the server goes on without telling
            log.warn(
                    "cannot notify the service manager at NOTIFY_SOCKET={}: {}; systemd will not see this server ready",
                    socket,
                    t.getMessage() == null ? t.toString() : t.getMessage());
            return false;
        }
    }

    private void open(MemorySegment err) throws Throwable {
        var libc = LINKER.defaultLookup();
        MethodHandle socketCall = LINKER.downcallHandle(
                libc.find("socket").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                ERRNO_OPTION);
        sendto = LINKER.downcallHandle(
                libc.find("sendto").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT),
                ERRNO_OPTION);
        close = LINKER.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        int s = (int) socketCall.invokeExact(err, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s < 0) {
            throw new IllegalStateException("socket: errno " + (int) ERRNO.get(err, 0L));
        }
        fd = s;
    }

    /** The sockaddr_un of the socket: a path ends in NUL; an abstract name starts with one and has none after. */
    private MemorySegment address(Arena arena) {
        boolean abstractName = socket.startsWith("@");
        byte[] name = (abstractName ? socket.substring(1) : socket).getBytes(StandardCharsets.UTF_8);
        if (name.length + 1 > SUN_PATH) {
            throw new IllegalArgumentException("the socket name is longer than " + (SUN_PATH - 1) + " bytes");
        }
        MemorySegment sa = arena.allocate(2 + name.length + 1);
        sa.set(JAVA_SHORT, 0, (short) AF_UNIX);
        MemorySegment.copy(name, 0, sa, JAVA_BYTE, abstractName ? 3 : 2, name.length);
        return abstractName ? sa.asSlice(0, 2 + 1 + name.length) : sa;
    }

    @Override
    public synchronized void close() {
        if (fd >= 0) {
            try {
                int ignored = (int) close.invokeExact(fd);
            } catch (Throwable t) {
                log.debug("closing the notify socket: {}", t.toString());
            }
            fd = -1;
        }
    }
}
