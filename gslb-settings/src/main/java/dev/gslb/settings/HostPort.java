package dev.gslb.settings;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A listen or peer address as operators write it: {@code 127.0.0.1:5353}, {@code [::1]:5353},
 * {@code ::1}, {@code 0.0.0.0}. Only literals: a host name would need a DNS lookup, which can hang
 * at start-up. The port may be left out; the setting that holds the address knows its default.
 *
 * @param port the written port, or {@link #NO_PORT}
 */
public record HostPort(InetAddress host, int port) {
    public static final int NO_PORT = -1;

    public static HostPort parse(String text) {
        String host = text;
        int port = NO_PORT;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + text + "' has '[' without ']'");
            }
            host = text.substring(1, close);
            if (close + 1 < text.length()) {
                if (text.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("expected ':port' after ']' in '" + text + "'");
                }
                port = port(text.substring(close + 2), text);
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = port(text.substring(text.indexOf(':') + 1), text);
        }
        try {
            return new HostPort(InetAddress.ofLiteral(host), port);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "'" + host + "' is not an IP address (write 127.0.0.1:5353 or [::1]:5353)");
        }
    }

    /** {@code text} as a socket address, with {@code defaultPort} if it names none. */
    public static InetSocketAddress parse(String text, int defaultPort) {
        return parse(text).orPort(defaultPort);
    }

    public InetSocketAddress orPort(int defaultPort) {
        return new InetSocketAddress(host, port == NO_PORT ? defaultPort : port);
    }

    private static int port(String p, String text) {
        try {
            int port = Integer.parseInt(p);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in '" + text + "'");
        }
    }
}
