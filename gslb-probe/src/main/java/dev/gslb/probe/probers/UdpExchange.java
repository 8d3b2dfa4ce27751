package dev.gslb.probe.probers;

import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Sends one datagram from a connected socket and waits for a reply. Connecting matters twice:
 * only the target's packets are received, and the kernel reports an ICMP port-unreachable as a
 * {@link PortUnreachableException}, which is a reply too.
 */
final class UdpExchange {
    /** Decides whether a datagram is the reply to {@code sent} (e.g. the DNS ID matches). */
    interface Match {
        boolean isReply(byte[] sent, byte[] data, int length);
    }

    /** A DNS reply to our query: same ID, QR set; any rcode counts. */
    static final Match DNS_REPLY =
            (sent, data, length) -> length >= 12 && data[0] == sent[0] && data[1] == sent[1] && (data[2] & 0x80) != 0;

    /** Anything that comes back. */
    static final Match ANY_REPLY = (sent, data, length) -> true;

    private UdpExchange() {}

    static Sample exchange(
            InetAddress source, InetAddress target, int port, byte[] payload, Duration timeout, Match match) {
        try (Series one = new Series(source, target, port, () -> payload, match)) {
            return one.sample(timeout);
        }
    }

    /**
     * The samples of one round to one target from one connected socket: making a socket costs
     * more system calls than the probe itself, three times per new LDNS. After a sample that got
     * no reply the socket is replaced, so a late reply (or ICMP error) to it is never taken for
     * the next one's; after a reply nothing more is owed on it.
     */
    static final class Series implements Prober.Series {
        private final InetAddress source;
        private final InetAddress target;
        private final int port;
        private final Supplier<byte[]> payloads;
        private final Match match;
        private final byte[] buf = new byte[4096];
        private DatagramSocket socket;

        Series(InetAddress source, InetAddress target, int port, Supplier<byte[]> payloads, Match match) {
            this.source = source;
            this.target = target;
            this.port = port;
            this.payloads = payloads;
            this.match = match;
        }

        @Override
        public Sample sample(Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            byte[] payload = payloads.get();
            Sample s = Sample.NO_REPLY;
            try {
                if (socket == null) {
                    socket = new DatagramSocket(new InetSocketAddress(source, 0));
                    socket.connect(target, port);
                }
                s = exchange(socket, payload, deadline);
            } catch (IOException e) {
                // unroutable or refused locally: no reply from the target
            }
            if (!s.replied()) {
                close();
            }
            return s;
        }

        private Sample exchange(DatagramSocket socket, byte[] payload, long deadline) throws IOException {
            long start = System.nanoTime();
            socket.send(new DatagramPacket(payload, payload.length));
            for (; ; ) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return Sample.NO_REPLY;
                }
                socket.setSoTimeout((int) left);
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    socket.receive(p);
                } catch (PortUnreachableException e) {
                    return Sample.reply(start); // ICMP port unreachable: the host answered
                } catch (SocketTimeoutException e) {
                    return Sample.NO_REPLY;
                }
                if (match.isReply(payload, buf, p.getLength())) {
                    return Sample.reply(start);
                }
            }
        }

        @Override
        public void close() {
            if (socket != null) {
                socket.close();
                socket = null;
            }
        }
    }
}
