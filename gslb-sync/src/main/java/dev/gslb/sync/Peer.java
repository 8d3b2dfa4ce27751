package dev.gslb.sync;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Another instance of the pair (or group), as it was paired: its name, its data center (fixed at
 * pairing: it may write only that data center's paths), the addresses it listens on (one per ISP
 * link, tried in order) and the SHA-256 fingerprint of its certificate, which TLS checks.
 */
public record Peer(String name, String dataCenter, List<InetSocketAddress> addresses, String fingerprint) {
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    public Peer {
        addresses = List.copyOf(addresses);
        if (fingerprint == null || !FINGERPRINT.matcher(fingerprint).matches()) {
            throw new IllegalArgumentException("peer " + name + ": the fingerprint must be 64 hex digits (SHA-256)");
        }
    }

    Peer at(List<InetSocketAddress> moved) {
        return new Peer(name, dataCenter, moved, fingerprint);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Peer p && p.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
