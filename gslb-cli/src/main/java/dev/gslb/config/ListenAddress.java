package dev.gslb.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Parses listen addresses as operators write them: 127.0.0.1:5353, [::1]:5353, ::1, 0.0.0.0. */
public final class ListenAddress {
    private ListenAddress() {}

    public static InetSocketAddress parse(String text, int defaultPort) {
        String host = text;
        int port = defaultPort;
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
            return new InetSocketAddress(InetAddress.ofLiteral(host), port);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "'" + host + "' is not an IP address (write 127.0.0.1:5353 or [::1]:5353)");
        }
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
