package dev.gslb.probe.probers;

import dev.gslb.probe.Sample;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Sends one datagram from a connected socket and waits for a reply. Connecting matters twice:
 * only the target's packets are received, and the kernel reports an ICMP port-unreachable as a
 * {@link PortUnreachableException}, which is a reply too.
 */
final class UdpExchange {
    /** Decides whether a datagram is the reply we wait for (e.g. the DNS ID matches). */
    interface Match {
        boolean isReply(byte[] data, int length);
    }

    private UdpExchange() {}

    static Sample exchange(
            InetAddress source, InetAddress target, int port, byte[] payload, Duration timeout, Match match) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(source, 0))) {
            s.connect(target, port);
            long start = System.nanoTime();
            s.send(new DatagramPacket(payload, payload.length));
            byte[] buf = new byte[4096];
            for (; ; ) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return Sample.NO_REPLY;
                }
                s.setSoTimeout((int) left);
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(p);
                } catch (PortUnreachableException e) {
                    return Sample.reply(start); // ICMP port unreachable: the host answered
                }
                if (match.isReply(buf, p.getLength())) {
                    return Sample.reply(start);
                }
            }
        } catch (SocketTimeoutException e) {
            return Sample.NO_REPLY;
        } catch (IOException e) {
            return Sample.NO_REPLY; // unroutable or refused locally: no reply from the target
        }
    }

    /** A DNS reply to our query: same ID, QR set; any rcode counts. */
    static Match dnsReplyTo(byte[] query) {
        return (data, length) -> length >= 12 && data[0] == query[0] && data[1] == query[1] && (data[2] & 0x80) != 0;
    }
}
