package dev.gslb.dns.server;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.ThrottledLog;
import dev.gslb.dns.answer.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

/**
 * One UDP socket served by one platform thread, the way gdnsd and Knot serve UDP: the thread
 * blocks in recvmmsg until at least one query is queued, takes up to {@link #BATCH} in that one
 * call, answers each into a fixed native buffer, and sends all the answers with one sendmmsg.
 * Every buffer and header is allocated once when the thread starts, so a query costs no object
 * (the client's address is read from the kernel's sockaddr as two longs, IPv4 mapped),
 * and a batch costs two system calls. Each thread has its own socket bound with SO_REUSEPORT, so
 * the kernel spreads queries over the threads and no state is shared between them but the
 * {@link Responder}'s lock-free tables.
 */
final class BatchedUdpListener implements AutoCloseable {
    /** Datagrams per recvmmsg: enough to empty a busy queue in a few calls, small enough to stay in cache. */
    static final int BATCH = 32;
    /** Bytes read of one datagram: one more than the largest query taken, so a longer one shows as oversize. */
    private static final int SLOT = Responder.MAX_UDP_QUERY + 1;
    /** The largest UDP answer (edns-udp-size is at most 4096). */
    private static final int ANSWER = 4096;
    /** The loop looks at its stop flag at least this often even when no query comes (shutdown wakes it sooner). */
    private static final int RECEIVE_TIMEOUT_MILLIS = 1000;

    private static final ValueLayout.OfInt NET_INT =
            JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).withByteAlignment(1);
    private static final ValueLayout.OfShort NET_SHORT =
            JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN).withByteAlignment(1);
    private static final ValueLayout.OfLong NET_LONG =
            JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN).withByteAlignment(1);

    private final int fd;
    private final int port;
    private final Responder responder;
    private final ListenerHealth health;
    private final TimeSlice slice;
    private final String name;
    private final Thread thread;
    private final ThrottledLog errors = new ThrottledLog("gslb.dns");
    private volatile boolean closing;

    private BatchedUdpListener(int fd, Responder responder, ListenerHealth health, TimeSlice slice, String name) {
        this.fd = fd;
        this.port = NativeUdp.localPort(fd);
        this.responder = responder;
        this.health = health;
        this.slice = slice;
        this.name = name;
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::serve);
    }

    /** Whether this platform can run it (Linux with the FFM API); otherwise netty serves UDP. */
    static boolean available() {
        return NativeUdp.AVAILABLE;
    }

    /**
     * Binds a socket on {@code address} and starts its thread.
     *
     * @throws IllegalStateException with the system's reason when the socket cannot be bound
     */
    static BatchedUdpListener start(
            InetSocketAddress address, Responder responder, ListenerHealth health, TimeSlice slice, String name) {
        BatchedUdpListener l =
                new BatchedUdpListener(NativeUdp.bind(address, RECEIVE_TIMEOUT_MILLIS), responder, health, slice, name);
        health.serving(name);
        l.thread.start();
        return l;
    }

    int port() {
        return port;
    }

    int fd() {
        return fd;
    }

    /**
     * The loop survives whatever one batch throws (a failed system call, an error answering one
     * datagram, even an OutOfMemoryError): it is logged (throttled) and counted, and the next batch
     * is read. It ends only when its socket is gone (a closed descriptor), which it reports to
     * {@link ListenerHealth}, as it does anything that escapes the loop itself.
     */
    private void serve() {
        slice.requestForCurrentThread();
        try (Arena arena = Arena.ofConfined()) {
            Batch b = new Batch(arena);
            while (!closing) {
                try {
                    int n = b.receive();
                    if (n > 0) {
                        b.send(b.answer(n, System.currentTimeMillis())); // one clock read for the batch
                    }
                } catch (SocketGone e) {
                    throw e;
                } catch (Throwable e) { // the listener must not die of one batch
                    health.survived();
                    if (errors.admit()) {
                        errors.line("UDP listener on port " + port + ": " + e + " (retrying)");
                    }
                    pause();
                }
            }
        } catch (Throwable e) {
            if (!closing) {
                health.failed(name, "UDP on port " + port + " stopped: " + e.getMessage());
            }
        }
    }

    /** The socket itself is gone (closed or invalid): no retry can help. */
    private static final class SocketGone extends RuntimeException {
        SocketGone(String message) {
            super(message, null, false, false);
        }
    }

    /** A short wait after a failed call, so a lasting failure does not spin the core. */
    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The thread's native buffers and message headers, laid out once. */
    private final class Batch {
        final MemorySegment err;
        final MemorySegment queries;
        final MemorySegment answers;
        final MemorySegment names;
        final MemorySegment receiveHeaders;
        final MemorySegment sendHeaders;
        final MemorySegment sendIov;
        final byte[] scratch = new byte[SLOT];
        /**
         * The answer is written on the heap and copied to its native slot in one call: the writer's
         * many small writes cost less into an array than into native memory through a ByteBuffer.
         */
        final ByteBuf answerBuf = Unpooled.wrappedBuffer(new byte[ANSWER]);

        final Responder.Worker worker = responder.worker();

        Batch(Arena arena) {
            err = NativeUdp.errnoSlot(arena);
            queries = arena.allocate((long) BATCH * SLOT, 64);
            answers = arena.allocate((long) BATCH * ANSWER, 64);
            names = arena.allocate((long) BATCH * NativeUdp.SOCKADDR, 8);
            MemorySegment receiveIov = arena.allocate(BATCH * NativeUdp.IOVEC, 8);
            sendIov = arena.allocate(BATCH * NativeUdp.IOVEC, 8);
            receiveHeaders = arena.allocate(BATCH * NativeUdp.MMSGHDR, 8);
            sendHeaders = arena.allocate(BATCH * NativeUdp.MMSGHDR, 8);
            for (int i = 0; i < BATCH; i++) {
                long iov = i * NativeUdp.IOVEC;
                receiveIov.set(JAVA_LONG, iov, queries.address() + (long) i * SLOT);
                receiveIov.set(JAVA_LONG, iov + 8, SLOT);
                sendIov.set(JAVA_LONG, iov, answers.address() + (long) i * ANSWER);
                long h = i * NativeUdp.MMSGHDR;
                receiveHeaders.set(JAVA_LONG, h + NativeUdp.MSG_NAME, names.address() + (long) i * NativeUdp.SOCKADDR);
                receiveHeaders.set(JAVA_LONG, h + NativeUdp.MSG_IOV, receiveIov.address() + iov);
                receiveHeaders.set(JAVA_LONG, h + NativeUdp.MSG_IOVLEN, 1);
                sendHeaders.set(JAVA_LONG, h + NativeUdp.MSG_IOV, sendIov.address() + iov);
                sendHeaders.set(JAVA_LONG, h + NativeUdp.MSG_IOVLEN, 1);
            }
        }

        /** Blocks for at least one datagram; how many arrived (0 on a timeout, an interruption or a stop). */
        int receive() {
            for (int i = 0; i < BATCH; i++) { // the kernel writes back each sender's address length
                receiveHeaders.set(JAVA_INT, i * NativeUdp.MMSGHDR + NativeUdp.MSG_NAMELEN, NativeUdp.SOCKADDR);
            }
            int n = NativeUdp.receive(err, fd, receiveHeaders.address(), BATCH);
            if (n < 0) {
                int e = NativeUdp.errno(err);
                if (closing || e == NativeUdp.EAGAIN || e == NativeUdp.EINTR) {
                    return 0;
                }
                if (e == NativeUdp.EBADF || e == NativeUdp.ENOTSOCK || e == NativeUdp.EINVAL || e == NativeUdp.EFAULT) {
                    throw new SocketGone("recvmmsg failed: errno " + e + " (the socket is gone)");
                }
                throw new IllegalStateException("recvmmsg failed: errno " + e);
            }
            return n;
        }

        /** Answers the {@code n} datagrams received at {@code now}; returns how many answers are laid out to send. */
        int answer(int n, long now) {
            int out = 0;
            for (int i = 0; i < n; i++) {
                long h = i * NativeUdp.MMSGHDR;
                int length = receiveHeaders.get(JAVA_INT, h + NativeUdp.MSG_LEN); // at most SLOT: longer ones are cut
                MemorySegment.copy(queries, JAVA_BYTE, (long) i * SLOT, scratch, 0, length);
                long name = (long) i * NativeUdp.SOCKADDR;
                short family = names.get(JAVA_SHORT, name);
                long hi;
                long lo;
                int clientPort = names.get(NET_SHORT, name + 2) & 0xFFFF; // sin_port and sin6_port alike
                if (family == NativeUdp.AF_INET) { // the client as the 128-bit form, IPv4 mapped
                    hi = 0;
                    lo = 0xFFFF_0000_0000L | (names.get(NET_INT, name + 4) & 0xFFFF_FFFFL);
                } else if (family == NativeUdp.AF_INET6) { // an IPv4-mapped IPv6 sender is IPv4 either way
                    hi = names.get(NET_LONG, name + 8);
                    lo = names.get(NET_LONG, name + 16);
                } else {
                    continue; // not an IP sender: nothing to answer
                }
                ByteBuf buf = answerBuf.clear();
                if (responder.respond(worker, scratch, length, Transport.UDP, hi, lo, clientPort, now, buf)) {
                    MemorySegment.copy(buf.array(), 0, answers, JAVA_BYTE, (long) out * ANSWER, buf.readableBytes());
                    long s = out * NativeUdp.MMSGHDR;
                    sendHeaders.set(JAVA_LONG, s + NativeUdp.MSG_NAME, names.address() + name);
                    sendHeaders.set(
                            JAVA_INT,
                            s + NativeUdp.MSG_NAMELEN,
                            receiveHeaders.get(JAVA_INT, h + NativeUdp.MSG_NAMELEN));
                    sendIov.set(JAVA_LONG, out * NativeUdp.IOVEC + 8, buf.readableBytes());
                    out++;
                }
            }
            return out;
        }

        /** Sends the first {@code count} laid-out answers; a client the kernel will not send to costs only its own. */
        void send(int count) {
            int sent = 0;
            while (sent < count) {
                int r = NativeUdp.send(err, fd, sendHeaders.address() + sent * NativeUdp.MMSGHDR, count - sent);
                if (r > 0) {
                    sent += r;
                } else if (r < 0 && NativeUdp.errno(err) == NativeUdp.EINTR) {
                    continue;
                } else {
                    sent++; // this answer's destination failed (e.g. unreachable): skip it, send the rest
                }
            }
        }
    }

    /** Stops the thread (shutdown wakes it from recvmmsg) and closes the socket. */
    @Override
    public void close() {
        closing = true;
        NativeUdp.shutdown(fd);
        try {
            thread.join(RECEIVE_TIMEOUT_MILLIS * 2L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        NativeUdp.close(fd);
        health.stopped(name);
        errors.close();
    }
}
