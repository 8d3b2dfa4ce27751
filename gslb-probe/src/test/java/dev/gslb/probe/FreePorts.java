package dev.gslb.probe;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Ports on 127.0.0.1 for a test to give a server it starts. A DNS server binds UDP and TCP on one port, and UDP and
 * TCP ports are handed out apart: a port free for UDP may be a TCP client's source port at that moment (CI lost a run
 * to it), so a port is taken only when both are free.
 */
public final class FreePorts {
    private static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");

    private FreePorts() {}

    /** A port free on 127.0.0.1 for both UDP and TCP when asked (a race with later binds stays possible, rarely). */
    public static int udpAndTcp() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket tcp = new ServerSocket(0, 1, LOOPBACK)) {
                try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(LOOPBACK, tcp.getLocalPort()))) {
                    return udp.getLocalPort();
                } catch (IOException takenForUdp) {
                    // try another
                }
            }
        }
        throw new IOException("no port free for both UDP and TCP on 127.0.0.1 in 100 tries");
    }
}
