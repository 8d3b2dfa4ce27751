package dev.gslb.dns.server;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Where and how the DNS listeners run.
 *
 * @param addresses     UDP and TCP listen addresses (v4 and v6)
 * @param threads       event loops; each gets its own UDP socket (SO_REUSEPORT); 0 = one per core
 * @param tcpIdle       a TCP connection with no query for this long is closed
 * @param tcpMaxConnections connections above this are closed at once
 */
public record ListenerSettings(List<InetSocketAddress> addresses, int threads, Duration tcpIdle,
                               int tcpMaxConnections) {
    public static final Duration DEFAULT_TCP_IDLE = Duration.ofSeconds(10);
    public static final int DEFAULT_TCP_MAX_CONNECTIONS = 1024;

    public ListenerSettings {
        addresses = List.copyOf(addresses);
    }

    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }
}
