package dev.gslb.dns.answer;

import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.Zones;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * Everything a server answers from: the zones and the wide IPs inside them. Immutable; a reload
 * builds a new one and swaps it in whole, so a query sees either the old or the new data.
 */
public final class Authority {
    private final Zones zones;
    private final Map<Name, WideIp> wideIps;
    /**
     * The same wide IPs in an open-addressing table keyed by lower-case wire name, so the query
     * path finds one straight from the packet's bytes without building a name.
     */
    private final byte[][] wireNames;

    private final WideIp[] byWire;
    private final int mask;

    public Authority(List<Zone> zones, List<WideIp> wideIps) {
        this.zones = new Zones(zones);
        Map<Name, WideIp> byName = new HashMap<>();
        for (WideIp w : wideIps) {
            checkPlacement(this.zones, w.name());
            if (byName.put(w.name(), w) != null) {
                throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
            }
        }
        this.wideIps = Map.copyOf(byName);
        int size = Integer.highestOneBit(Math.max(4, wideIps.size() * 4) - 1) << 1;
        this.wireNames = new byte[size][];
        this.byWire = new WideIp[size];
        this.mask = size - 1;
        for (WideIp w : wideIps) {
            byte[] wire = w.name().toWireCanonical();
            int i = (int) WireName.hash(wire, 0, wire.length) & mask;
            while (wireNames[i] != null) {
                i = (i + 1) & mask;
            }
            wireNames[i] = wire;
            byWire[i] = w;
        }
    }

    /** A wide IP must be inside a served zone, at a name that is not also an alias (CNAME). */
    public static void checkPlacement(Zones zones, Name wideIp) {
        Zone zone = zones.find(wideIp);
        if (zone == null) {
            throw new IllegalArgumentException("wide IP " + wideIp + " is not inside any served zone");
        }
        // A and AAAA records at the name are allowed: only the return-to-dns method answers them.
        if (zone.rrset(wideIp, Type.CNAME) != null) {
            throw new IllegalArgumentException("wide IP " + wideIp + " also has a CNAME in zone " + zone.origin()
                    + "; a name is either an alias or a wide IP");
        }
    }

    public Zones zones() {
        return zones;
    }

    public WideIp wideIp(Name name) {
        return wideIps.get(name);
    }

    /** The wide IP whose name is the question of {@code q}, or null; reads the packet in place. */
    WideIp wideIp(QueryView q) {
        for (int i = (int) q.qnameHash & mask; wireNames[i] != null; i = (i + 1) & mask) {
            if (WireName.matches(wireNames[i], q.buf, QueryView.HEADER, q.qnameEnd)) {
                return byWire[i];
            }
        }
        return null;
    }

    public Map<Name, WideIp> wideIps() {
        return wideIps;
    }

    /**
     * The longest TTL of an answer that may carry a server {@code answered} accepts (pool TTL, else
     * the wide IP's), or 0: how long resolvers may keep sending users there after it fails.
     */
    public long longestAnswerTtl(java.util.function.Predicate<dev.gslb.site.VirtualServer> answered) {
        long ttl = 0;
        for (WideIp w : wideIps.values()) {
            for (dev.gslb.dns.wideip.Pool p : w.pools()) {
                if (p.members().stream().anyMatch(answered)) {
                    ttl = Math.max(ttl, p.ttl() >= 0 ? p.ttl() : w.ttl());
                }
            }
        }
        return ttl;
    }
}
