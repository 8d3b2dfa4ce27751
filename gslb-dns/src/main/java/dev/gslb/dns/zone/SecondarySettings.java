package dev.gslb.dns.zone;

import java.net.InetSocketAddress;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * Where a secondary zone comes from: its primaries, tried in order, and the TSIG key its transfers
 * and the primaries' NOTIFY are signed with (null: unsigned).
 */
public record SecondarySettings(List<InetSocketAddress> primaries, Name tsig) {
    public SecondarySettings {
        primaries = List.copyOf(primaries);
        if (primaries.isEmpty()) {
            throw new IllegalArgumentException("a secondary zone needs at least one primary");
        }
    }

    /** Whether a NOTIFY from {@code from} may be a primary's (its address, any port). */
    public boolean isPrimary(java.net.InetAddress from) {
        return primaries.stream().anyMatch(p -> p.getAddress().equals(from));
    }
}
