package dev.gslb.dns.dnssec;

import java.util.Map;
import org.xbill.DNS.Name;

/**
 * The keys of every zone signed here, by zone origin: immutable, published whole to the query
 * path when keys are made, read, rolled or received from a peer. A zone with {@code dnssec:} but
 * no complete keys here is answered unsigned (and {@code gslb dnssec status} says why).
 */
public record KeyRing(Map<Name, ZoneKeys> zones) {
    public static final KeyRing EMPTY = new KeyRing(Map.of());

    public KeyRing {
        zones = Map.copyOf(zones);
    }

    /** The keys of the zone {@code origin}, or null when it is not signed here. */
    public ZoneKeys of(Name origin) {
        return zones.get(origin);
    }
}
