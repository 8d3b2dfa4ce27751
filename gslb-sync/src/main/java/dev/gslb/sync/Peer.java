package dev.gslb.sync;

import java.net.InetSocketAddress;
import java.util.Base64;
import java.util.List;

/**
 * Another instance of the pair (or group): its name, data center, the addresses it listens on
 * (one per ISP link, tried in order) and the shared key of the pair. The key never leaves this
 * object in a log line or a listing: {@link #toString()} leaves it out.
 */
public record Peer(String name, String dataCenter, List<InetSocketAddress> addresses, byte[] key) {
    public Peer {
        addresses = List.copyOf(addresses);
        if (key == null || key.length < 16) {
            throw new IllegalArgumentException("peer " + name + ": the key must be at least 16 bytes");
        }
    }

    String keyBase64() {
        return Base64.getEncoder().encodeToString(key);
    }

    @Override
    public String toString() {
        return "Peer[" + name + " in " + dataCenter + " at " + addresses + "]";
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
