package dev.gslb.probe;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A UDP echo that holds each reply for a time chosen by the sender's address: one "LDNS" that is
 * near to one data center and far from another, on loopback. A reply echoes the request with the
 * QR bit set, so DNS probers take it as an answer.
 */
public final class DelayingResponder implements AutoCloseable {
    private final DatagramSocket socket;
    private final Map<InetAddress, Duration> delays = new ConcurrentHashMap<>();
    private final Thread thread;

    public DelayingResponder(InetAddress address) throws SocketException {
        socket = new DatagramSocket(new InetSocketAddress(address, 0));
        thread = Thread.ofVirtual().start(this::serve);
    }

    public DelayingResponder delay(InetAddress source, Duration d) {
        delays.put(source, d);
        return this;
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        byte[] buf = new byte[2048];
        while (!socket.isClosed()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (IOException e) {
                return;
            }
            byte[] reply = java.util.Arrays.copyOf(p.getData(), p.getLength());
            if (reply.length > 2) {
                reply[2] |= (byte) 0x80;
            }
            InetSocketAddress to = (InetSocketAddress) p.getSocketAddress();
            Duration d = delays.getOrDefault(to.getAddress(), Duration.ZERO);
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(d); // kept: the delay this responder exists to add (a slow path)
                    socket.send(new DatagramPacket(reply, reply.length, to));
                } catch (IOException | InterruptedException e) {
                    // closed
                }
            });
        }
    }

    @Override
    public void close() {
        socket.close();
        thread.interrupt();
    }
}
