package dev.gslb.dns.server;

import dev.gslb.settings.HostPort;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Where and how the DNS listeners run (docs/configuration.md "Every key and its default", keys
 * under {@code dns:}).
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

    public static final Setting<List<InetSocketAddress>> LISTEN = Setting.list(
                    "listen",
                    HostPort.class,
                    List.of(HostPort.parse("127.0.0.1:5353")),
                    "UDP and TCP listen addresses (port 53 when not written)")
            .map(l -> l.stream().map(h -> h.orPort(DEFAULT_PORT)).toList(), List.of(loopback(5353)));
    public static final Setting<Integer> THREADS =
            Setting.integer("threads", 0, 0, 256, "UDP threads per address and TCP event loops; 0 = one per core");
    public static final Setting<Duration> TCP_IDLE_TIMEOUT = positive(
            "tcp-idle-timeout", Duration.ofSeconds(10), "close a TCP connection idle (or not reading) this long");
    public static final Setting<Duration> TCP_QUERY_TIMEOUT =
            positive("tcp-query-timeout", Duration.ofSeconds(2), "a TCP message must arrive whole within this");
    public static final Setting<Integer> TCP_MAX_CONNECTIONS =
            Setting.integer("tcp-max-connections", 1024, 1, 1_000_000, "open at once; the idlest gives way");
    public static final Setting<Integer> TCP_MAX_CONNECTIONS_PER_SOURCE =
            Setting.integer("tcp-max-connections-per-source", 64, 1, 1_000_000, "per client address");

    public static final SettingsTable<ListenerSettings> SETTINGS = SettingsTable.of(
            ListenerSettings.class,
            LISTEN,
            THREADS,
            TCP_IDLE_TIMEOUT,
            TCP_QUERY_TIMEOUT,
            TCP_MAX_CONNECTIONS,
            TCP_MAX_CONNECTIONS_PER_SOURCE);

    public static final ListenerSettings DEFAULTS = SETTINGS.defaults();

    public ListenerSettings {
        addresses = List.copyOf(addresses);
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static Setting<Duration> positive(String key, Duration defaultValue, String doc) {
        return Setting.duration(key, defaultValue, doc).check("above 0", d -> {
            if (d.toMillis() < 1) {
                throw new IllegalArgumentException("TCP timeouts must be positive");
            }
        });
    }

    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    public ListenerSettings withAddresses(List<InetSocketAddress> a, int threads) {
        return SETTINGS.change(this).set(LISTEN, a).set(THREADS, threads).build();
    }

    public ListenerSettings withTcpLimits(Duration idle, Duration queryTimeout, int max, int perSource) {
        return SETTINGS.change(this)
                .set(TCP_IDLE_TIMEOUT, idle)
                .set(TCP_QUERY_TIMEOUT, queryTimeout)
                .set(TCP_MAX_CONNECTIONS, max)
                .set(TCP_MAX_CONNECTIONS_PER_SOURCE, perSource)
                .build();
    }
}
