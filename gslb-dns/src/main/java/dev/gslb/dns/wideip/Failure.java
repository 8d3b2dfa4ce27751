package dev.gslb.dns.wideip;

import java.net.InetAddress;
import java.util.List;

/**
 * What a wide IP answers when no pool can (F5's last resort and failure rcode): fallback
 * addresses, or NOERROR/NODATA, NXDOMAIN, REFUSED or SERVFAIL, each with its own TTL.
 */
public record Failure(Kind kind, List<InetAddress> addresses, long ttl) {
    public enum Kind {
        FALLBACK_IP,
        NODATA,
        NXDOMAIN,
        REFUSED,
        SERVFAIL
    }

    public static final Failure DEFAULT = new Failure(Kind.NODATA, List.of(), 30);

    public Failure {
        addresses = List.copyOf(addresses);
        if (kind == Kind.FALLBACK_IP && addresses.isEmpty()) {
            throw new IllegalArgumentException("a fallback-ip failure needs at least one address");
        }
    }
}
