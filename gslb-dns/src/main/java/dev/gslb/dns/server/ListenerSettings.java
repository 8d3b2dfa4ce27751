package dev.gslb.dns.server;

import dev.gslb.settings.Bounds;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Where and how the DNS listeners run (README "Configuration", keys under {@code dns:}).
 *
 * @param addresses                  UDP and TCP listen addresses (v4 and v6)
 * @param threads                    event loops; each gets its own UDP socket (SO_REUSEPORT); 0 = one per core
 * @param tcpIdle                    a TCP connection with no query for this long is closed; also how long one
 *                                   that does not read its answers may stay unwritable
 * @param tcpQueryTimeout            from the first byte of a TCP message to its last; a slower one closes the
 *                                   connection (a client trickling bytes cannot hold it open)
 * @param tcpMaxConnections          connections above this are closed at once
 * @param tcpMaxConnectionsPerSource connections from one address above this are closed at once
 */
public record ListenerSettings(
        List<InetSocketAddress> addresses,
        int threads,
        Duration tcpIdle,
        Duration tcpQueryTimeout,
        int tcpMaxConnections,
        int tcpMaxConnectionsPerSource) {
    /** The port of a listen address written without one (the DNS port). */
    public static final int DEFAULT_PORT = 53;

    public static final ListenerSettings DEFAULTS = new ListenerSettings(
            List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 5353)),
            0,
            Duration.ofSeconds(10),
            Duration.ofSeconds(2),
            1024,
            64);

    public ListenerSettings {
        addresses = List.copyOf(addresses);
        Bounds.within("threads", threads, 0, 256);
        Bounds.within("tcp-max-connections", tcpMaxConnections, 1, 1_000_000);
        Bounds.within("tcp-max-connections-per-source", tcpMaxConnectionsPerSource, 1, 1_000_000);
        if (tcpIdle.toMillis() < 1 || tcpQueryTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("TCP timeouts must be positive");
        }
    }

    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    public ListenerSettings withAddresses(List<InetSocketAddress> a, int threads) {
        return new ListenerSettings(
                a, threads, tcpIdle, tcpQueryTimeout, tcpMaxConnections, tcpMaxConnectionsPerSource);
    }

    public ListenerSettings withTcpLimits(Duration idle, Duration queryTimeout, int max, int perSource) {
        return new ListenerSettings(addresses, threads, idle, queryTimeout, max, perSource);
    }
}
