package dev.gslb.probe.probers;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ICMP echo through the C library via the FFM API (Java has no raw sockets). A raw socket (root
 * or CAP_NET_RAW) also shows the reply's IP TTL, from which hops are estimated; otherwise a
 * Linux ping socket (SOCK_DGRAM, allowed by net.ipv4.ping_group_range) gives the RTT only. When
 * neither may be opened the prober reports itself unavailable and is skipped: it is never faked.
 * IPv4 only; an IPv6 LDNS is measured by the other protocols.
 */
public final class IcmpProber implements Prober, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IcmpProber.class);
    private static final int AF_INET = 2;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_DGRAM = 2;
    private static final int IPPROTO_ICMP = 1;
    private static final short POLLIN = 1;
    /** Unreachable codes a host sends about itself: protocol 2, port 3, prohibited 9, 10, 13. */
    private static final java.util.Set<Integer> PROVING_UNREACHABLE = java.util.Set.of(2, 3, 9, 10, 13);

    enum Mode {
        RAW,
        PING,
        UNAVAILABLE
    }

    /** The six downcalls, linked at the first call (the detection's), not when a prober is made. */
    private static final class Libc {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final SymbolLookup LIBC = LINKER.defaultLookup();
        static final MethodHandle SOCKET =
                handle("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle BIND = handle("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle SENDTO = handle(
                "sendto", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle RECV =
                handle("recv", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        static final MethodHandle POLL = handle("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

        private static MethodHandle handle(String name, FunctionDescriptor fd) {
            return LINKER.downcallHandle(LIBC.find(name).orElseThrow(), fd);
        }
    }

    private final InetAddress source;
    /**
     * Which socket this process may open, found on a thread of its own: the first native call
     * links the six downcalls, about 60 ms of cold code that a server's start need not wait for.
     */
    private final CompletableFuture<Mode> detection = CompletableFuture.supplyAsync(
                    IcmpProber::detect,
                    task -> Thread.ofPlatform().daemon().name("icmp-detect").start(task))
            .exceptionally(linkingFailed -> {
                log.warn("ICMP probes unavailable: {}; icmp is skipped", linkingFailed.toString());
                return Mode.UNAVAILABLE;
            });

    /** Native calls block their carrier thread, so they run on a few platform threads of their own. */
    private final ExecutorService natives = Executors.newFixedThreadPool(
            4, Thread.ofPlatform().daemon().name("icmp-probe-", 0).factory());

    public IcmpProber(InetAddress source) {
        this.source = source;
    }

    private static Mode detect() {
        Mode m = socketAllowed();
        if (m == Mode.UNAVAILABLE) {
            log.warn("ICMP probes unavailable: this process may open neither a raw nor a ping socket "
                    + "(run as root, grant CAP_NET_RAW, or widen net.ipv4.ping_group_range); icmp is skipped");
        }
        return m;
    }

    private static Mode socketAllowed() {
        for (Mode m : new Mode[] {Mode.RAW, Mode.PING}) {
            try {
                int fd = (int) Libc.SOCKET.invokeExact(AF_INET, m == Mode.RAW ? SOCK_RAW : SOCK_DGRAM, IPPROTO_ICMP);
                if (fd >= 0) {
                    int ignored = (int) Libc.CLOSE.invokeExact(fd);
                    return m;
                }
            } catch (Throwable t) {
                return Mode.UNAVAILABLE;
            }
        }
        return Mode.UNAVAILABLE;
    }

    /** Waits for the detection: two system calls, which never block. */
    Mode mode() {
        return detection.join();
    }

    @Override
    public ProbeProtocol protocol() {
        return ProbeProtocol.ICMP;
    }

    @Override
    public boolean available() {
        return mode() != Mode.UNAVAILABLE;
    }

    @Override
    public Sample sample(InetAddress target, Duration timeout) {
        Mode mode = mode();
        if (mode == Mode.UNAVAILABLE || !(target instanceof Inet4Address)) {
            return Sample.NO_REPLY;
        }
        try {
            return natives.submit(() -> {
                        try {
                            return ping(target, timeout);
                        } catch (Throwable t) {
                            return Sample.NO_REPLY;
                        }
                    })
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Sample.NO_REPLY;
        } catch (ExecutionException e) {
            return Sample.NO_REPLY;
        }
    }

    private Sample ping(InetAddress target, Duration timeout) throws Throwable {
        Mode mode = mode();
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) Libc.SOCKET.invokeExact(AF_INET, mode == Mode.RAW ? SOCK_RAW : SOCK_DGRAM, IPPROTO_ICMP);
            if (fd < 0) {
                return Sample.NO_REPLY;
            }
            try {
                if (!source.isAnyLocalAddress() && source instanceof Inet4Address) {
                    int ignored = (int) Libc.BIND.invokeExact(fd, sockaddr(arena, source), 16);
                }
                int id = ThreadLocalRandom.current().nextInt(1, 65536);
                int seq = ThreadLocalRandom.current().nextInt(1, 65536);
                MemorySegment packet = echoRequest(arena, id, seq);
                long deadline = System.nanoTime() + timeout.toNanos();
                long start = System.nanoTime();
                long sent =
                        (long) Libc.SENDTO.invokeExact(fd, packet, packet.byteSize(), 0, sockaddr(arena, target), 16);
                if (sent < 0) {
                    return Sample.NO_REPLY;
                }
                MemorySegment pollfd = arena.allocate(8);
                MemorySegment buf = arena.allocate(1500);
                byte[] want = target.getAddress();
                for (; ; ) {
                    int left = (int) ((deadline - System.nanoTime()) / 1_000_000);
                    if (left <= 0) {
                        return Sample.NO_REPLY;
                    }
                    pollfd.set(JAVA_INT, 0, fd);
                    pollfd.set(JAVA_SHORT, 4, POLLIN);
                    pollfd.set(JAVA_SHORT, 6, (short) 0);
                    int ready = (int) Libc.POLL.invokeExact(pollfd, 1L, left);
                    if (ready <= 0) {
                        continue;
                    }
                    long n = (long) Libc.RECV.invokeExact(fd, buf, 1500L, 0);
                    if (n <= 0) {
                        continue;
                    }
                    byte[] got = buf.asSlice(0, n).toArray(JAVA_BYTE);
                    int ttl = matchReply(got, want, id, seq);
                    if (ttl != Integer.MIN_VALUE) {
                        return new Sample(Math.max(1, (System.nanoTime() - start) / 1000), ttl);
                    }
                }
            } finally {
                int ignored = (int) Libc.CLOSE.invokeExact(fd);
            }
        }
    }

    /**
     * The reply's TTL (or -1 on a ping socket) when {@code got} answers our echo, else MIN_VALUE.
     * A raw socket sees every ICMP packet of the host, so source, id and sequence are checked.
     * On a raw socket a destination-unreachable sent by the target itself about our echo (protocol
     * or port unreachable, administratively prohibited: the LDNS's own firewall rejecting pings)
     * counts too: any packet back from the LDNS proves the path (the source's rule). One sent by a
     * router on the way does not, as its source is not the target.
     */
    private int matchReply(byte[] got, byte[] want, int id, int seq) {
        if (mode() == Mode.PING) { // the kernel strips the IP header and owns the id
            return got.length >= 8 && (got[0] & 0xFF) == 0 && u16(got, 6) == seq ? -1 : Integer.MIN_VALUE;
        }
        if (got.length < 28) {
            return Integer.MIN_VALUE;
        }
        int ihl = (got[0] & 0x0F) * 4;
        for (int i = 0; i < 4; i++) {
            if (got[12 + i] != want[i]) {
                return Integer.MIN_VALUE;
            }
        }
        int type = got[ihl] & 0xFF;
        if (type == 0 && got.length >= ihl + 8 && u16(got, ihl + 4) == id && u16(got, ihl + 6) == seq) {
            return got[8] & 0xFF;
        }
        if (type == 3 && PROVING_UNREACHABLE.contains(got[ihl + 1] & 0xFF) && got.length >= ihl + 8 + 20) {
            int inner = ihl + 8; // the original IP header, then the start of our echo request
            int innerIhl = (got[inner] & 0x0F) * 4;
            int echo = inner + innerIhl;
            if (got.length >= echo + 8
                    && (got[echo] & 0xFF) == 8
                    && u16(got, echo + 4) == id
                    && u16(got, echo + 6) == seq) {
                return got[8] & 0xFF;
            }
        }
        return Integer.MIN_VALUE;
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private static MemorySegment echoRequest(Arena arena, int id, int seq) {
        byte[] p = new byte[24];
        p[0] = 8; // echo request
        p[4] = (byte) (id >> 8);
        p[5] = (byte) id;
        p[6] = (byte) (seq >> 8);
        p[7] = (byte) seq;
        byte[] tag = "gslb-probe-rtt!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(tag, 0, p, 8, 16);
        int sum = 0;
        for (int i = 0; i < p.length; i += 2) {
            sum += ((p[i] & 0xFF) << 8) | (p[i + 1] & 0xFF);
        }
        sum = (sum >> 16) + (sum & 0xFFFF);
        sum += sum >> 16;
        int checksum = ~sum & 0xFFFF;
        p[2] = (byte) (checksum >> 8);
        p[3] = (byte) checksum;
        return arena.allocateFrom(JAVA_BYTE, p);
    }

    /** struct sockaddr_in: family in host order, port and address in network order. */
    private static MemorySegment sockaddr(Arena arena, InetAddress address) {
        MemorySegment sa = arena.allocate(16);
        sa.set(JAVA_SHORT, 0, (short) AF_INET);
        byte[] a = address.getAddress();
        for (int i = 0; i < 4; i++) {
            sa.set(JAVA_BYTE, 4 + i, a[i]);
        }
        return sa;
    }

    @Override
    public void close() {
        natives.shutdownNow();
    }
}
