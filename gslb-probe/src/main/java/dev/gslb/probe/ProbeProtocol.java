package dev.gslb.probe;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.Locale;

/** The ways of measuring the distance to an LDNS (3dns-behaviour.md, probe methods). */
public enum ProbeProtocol {
    DNS_DOT,
    DNS_REV,
    UDP,
    TCP,
    ICMP;

    /** The name operators write and 3DNS prints: dns_dot, dns_rev, udp, tcp, icmp. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static ProbeProtocol parse(String label) {
        try {
            return valueOf(label.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown probe protocol '" + label + "'; expected dns_dot, dns_rev, udp, tcp or icmp");
        }
    }
}
