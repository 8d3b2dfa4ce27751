package dev.gslb.dns.server;

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
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The Linux UDP socket calls of {@link BatchedUdpListener}, through the FFM API: socket, bind,
 * recvmmsg, sendmmsg. The JDK's DatagramChannel has no batch receive or send, and netty's reaches
 * them through its own buffers and envelopes; these calls take the listener's fixed native
 * buffers, so a batch of queries costs two system calls and no object. Struct offsets are those
 * of LP64 Linux (x86-64 and aarch64), the only platforms this is used on ({@link #AVAILABLE}).
 */
final class NativeUdp {
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUF = 7;
    private static final int SO_RCVBUF = 8;
    private static final int SO_REUSEPORT = 15;
    private static final int SO_RCVTIMEO = 20;
    private static final int SHUT_RDWR = 2;
    /** recvmmsg: block for the first datagram only, then take what is queued. */
    static final int MSG_WAITFORONE = 0x10000;

    private static final int MSG_DONTWAIT = 0x40;

    static final int EINTR = 4;
    static final int EBADF = 9;
    static final int EAGAIN = 11;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int ENOTSOCK = 88;

    /** struct iovec { void *base; size_t len; } */
    static final long IOVEC = 16;
    /** struct mmsghdr: struct msghdr (56 bytes) then unsigned msg_len, padded to 64. */
    static final long MMSGHDR = 64;

    static final long MSG_NAME = 0;
    static final long MSG_NAMELEN = 8;
    static final long MSG_IOV = 16;
    static final long MSG_IOVLEN = 24;
    static final long MSG_LEN = 56;
    /** Room for a struct sockaddr_in6 (28 bytes), rounded up. */
    static final int SOCKADDR = 32;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final FunctionDescriptor RECVMMSG_TYPE =
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG);
    private static final FunctionDescriptor SENDMMSG_TYPE =
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT);

    static final boolean AVAILABLE;
    private static final MethodHandle SOCKET;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle BIND;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle RECVMMSG;
    private static final MethodHandle SENDMMSG;
    private static final MethodHandle RECVMMSG_PLAIN;
    private static final MethodHandle SENDMMSG_PLAIN;
    private static final MethodHandle SHUTDOWN;
    private static final MethodHandle CLOSE;

    static {
        MethodHandle[] h = new MethodHandle[10];
        boolean ok = false;
        if (LinuxPlatform.SUPPORTED) {
            try {
                SymbolLookup libc = LINKER.defaultLookup();
                h[0] = handle(libc, "socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
                h[1] = handle(
                        libc,
                        "setsockopt",
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
                h[2] = handle(libc, "bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
                h[3] = handle(libc, "getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
                // Pointers as longs: the loop passes addresses inside its buffers without making slices.
                h[4] = handle(libc, "recvmmsg", RECVMMSG_TYPE);
                h[5] = handle(libc, "sendmmsg", SENDMMSG_TYPE);
                h[6] = handle(libc, "shutdown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
                h[7] = handle(libc, "close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
                // The batch loop's calls without errno capture: a capturing call slices its capture
                // segment (SharedUtils.checkCaptureSegment), an object per call whenever the JIT
                // does not scalar-replace it; errno is read only after a failure, by asking again.
                h[8] = LINKER.downcallHandle(libc.find("recvmmsg").orElseThrow(), RECVMMSG_TYPE);
                h[9] = LINKER.downcallHandle(libc.find("sendmmsg").orElseThrow(), SENDMMSG_TYPE);
                ok = true;
            } catch (RuntimeException | LinkageError e) {
                ok = false; // no FFM or no native access: the listener falls back to netty
            }
        }
        AVAILABLE = ok;
        SOCKET = h[0];
        SETSOCKOPT = h[1];
        BIND = h[2];
        GETSOCKNAME = h[3];
        RECVMMSG = h[4];
        SENDMMSG = h[5];
        SHUTDOWN = h[6];
        CLOSE = h[7];
        RECVMMSG_PLAIN = h[8];
        SENDMMSG_PLAIN = h[9];
    }

    private NativeUdp() {}

    private static MethodHandle handle(SymbolLookup libc, String name, FunctionDescriptor fd) {
        Optional<MemorySegment> symbol = libc.find(name);
        return LINKER.downcallHandle(symbol.orElseThrow(), fd, ERRNO_OPTION);
    }

    /** Where a call leaves errno; one per thread that makes calls. */
    static MemorySegment errnoSlot(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    static int errno(MemorySegment slot) {
        return (int) ERRNO.get(slot, 0L);
    }

    /**
     * A UDP socket bound to {@code address} with SO_REUSEPORT (so one socket per thread shares the
     * port), large kernel buffers and a receive timeout (the loop looks at its stop flag at least
     * that often). Returns the descriptor.
     *
     * @throws IllegalStateException with the system's reason when it cannot be bound
     */
    static int bind(InetSocketAddress address, int receiveTimeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = errnoSlot(arena);
            boolean v6 = address.getAddress() instanceof Inet6Address;
            int fd = (int) SOCKET.invokeExact(err, v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (fd < 0) {
                throw new IllegalStateException("socket: " + reason(errno(err)));
            }
            try {
                MemorySegment one = arena.allocateFrom(JAVA_INT, 1);
                MemorySegment bufferSize = arena.allocateFrom(JAVA_INT, 4 << 20);
                MemorySegment timeout = arena.allocate(16);
                timeout.set(JAVA_LONG, 0, receiveTimeoutMillis / 1000);
                timeout.set(JAVA_LONG, 8, (receiveTimeoutMillis % 1000) * 1000L);
                check(err, (int) SETSOCKOPT.invokeExact(err, fd, SOL_SOCKET, SO_REUSEPORT, one, 4), "SO_REUSEPORT");
                check(err, (int) SETSOCKOPT.invokeExact(err, fd, SOL_SOCKET, SO_RCVBUF, bufferSize, 4), "SO_RCVBUF");
                check(err, (int) SETSOCKOPT.invokeExact(err, fd, SOL_SOCKET, SO_SNDBUF, bufferSize, 4), "SO_SNDBUF");
                check(err, (int) SETSOCKOPT.invokeExact(err, fd, SOL_SOCKET, SO_RCVTIMEO, timeout, 16), "SO_RCVTIMEO");
                MemorySegment sa = sockaddr(arena, address);
                check(err, (int) BIND.invokeExact(err, fd, sa, (int) sa.byteSize()), "bind");
                return fd;
            } catch (RuntimeException e) {
                close(fd);
                throw e;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The port a bound socket got (when 0 was asked). */
    static int localPort(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = errnoSlot(arena);
            MemorySegment sa = arena.allocate(SOCKADDR);
            MemorySegment length = arena.allocateFrom(JAVA_INT, SOCKADDR);
            check(err, (int) GETSOCKNAME.invokeExact(err, fd, sa, length), "getsockname");
            return port(sa, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * recvmmsg(2) into {@code count} message headers at {@code headers}; -1 with errno in {@code err}.
     * A failed wait (a timeout, a signal, a closed socket) is asked again without waiting, with
     * errno captured: that call either finds datagrams or says why there are none.
     */
    static int receive(MemorySegment err, int fd, long headers, int count) {
        try {
            int n = (int) RECVMMSG_PLAIN.invokeExact(fd, headers, count, MSG_WAITFORONE, 0L);
            return n >= 0 ? n : (int) RECVMMSG.invokeExact(err, fd, headers, count, MSG_DONTWAIT, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * sendmmsg(2) of {@code count} message headers at {@code headers}: how many went, or -1 with
     * errno in {@code err} (a failed send is tried once more with errno captured).
     */
    static int send(MemorySegment err, int fd, long headers, int count) {
        try {
            int n = (int) SENDMMSG_PLAIN.invokeExact(fd, headers, count, 0);
            return n >= 0 ? n : (int) SENDMMSG.invokeExact(err, fd, headers, count, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Wakes a thread blocked in recvmmsg on {@code fd} (it returns at once from then on). */
    static void shutdown(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            int ignored = (int) SHUTDOWN.invokeExact(errnoSlot(arena), fd, SHUT_RDWR);
        } catch (Throwable t) {
            // closing anyway
        }
    }

    static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(errnoSlot(arena), fd);
        } catch (Throwable t) {
            // nothing more to do for a descriptor being let go
        }
    }

    private static void check(MemorySegment err, int result, String call) {
        if (result < 0) {
            throw new IllegalStateException(call + " failed: " + reason(errno(err)));
        }
    }

    /** The errno values a bind meets, worded like the C library's strerror. */
    private static String reason(int errno) {
        return switch (errno) {
            case 98 -> "Address already in use";
            case 99 -> "Cannot assign requested address";
            case 13 -> "Permission denied";
            case 97 -> "Address family not supported by protocol";
            default -> "errno " + errno;
        };
    }

    /** struct sockaddr_in or sockaddr_in6: family in host order, port and address in network order. */
    private static MemorySegment sockaddr(Arena arena, InetSocketAddress address) {
        byte[] ip = address.getAddress().getAddress();
        boolean v6 = ip.length == 16;
        MemorySegment sa = arena.allocate(v6 ? 28 : 16);
        sa.set(JAVA_SHORT, 0, (short) (v6 ? AF_INET6 : AF_INET));
        sa.set(JAVA_BYTE, 2, (byte) (address.getPort() >> 8));
        sa.set(JAVA_BYTE, 3, (byte) address.getPort());
        MemorySegment.copy(ip, 0, sa, JAVA_BYTE, v6 ? 8 : 4, ip.length);
        if (v6 && address.getAddress() instanceof Inet6Address a6) {
            sa.set(JAVA_INT, 24, a6.getScopeId());
        }
        return sa;
    }

    static int port(MemorySegment sockaddr, long at) {
        return (sockaddr.get(JAVA_BYTE, at + 2) & 0xFF) << 8 | sockaddr.get(JAVA_BYTE, at + 3) & 0xFF;
    }
}
