package dev.gslb.dns.wideip;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.InetAddress;
import java.time.Duration;
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

    /** {@code failure: {rcode: noerror|nxdomain|refused|servfail, ttl: 30s}} or {@code {fallback-ip: [...], ttl}}. */
    @JsonCreator
    public static Failure bind(
            @JsonProperty("rcode") String rcode,
            @JsonProperty("fallback-ip") List<InetAddress> fallbackIp,
            @JsonProperty("ttl") Duration ttl) {
        long seconds = ttl == null ? DEFAULT.ttl() : ttl.toSeconds();
        if (fallbackIp != null) {
            return new Failure(Kind.FALLBACK_IP, fallbackIp, seconds);
        }
        Kind kind = switch (rcode == null ? "noerror" : rcode) {
            case "noerror", "nodata" -> Kind.NODATA;
            case "nxdomain" -> Kind.NXDOMAIN;
            case "refused" -> Kind.REFUSED;
            case "servfail" -> Kind.SERVFAIL;
            default ->
                throw new IllegalArgumentException("failure rcode must be noerror, nxdomain, refused or servfail");
        };
        return new Failure(kind, List.of(), seconds);
    }
}
