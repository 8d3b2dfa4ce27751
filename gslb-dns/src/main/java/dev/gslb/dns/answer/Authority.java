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
    /** The same wide IPs keyed by their lower-case wire form, for the no-allocation fast path. */
    private final Map<WireName, WideIp> wideIpsByWire;

    public Authority(List<Zone> zones, List<WideIp> wideIps) {
        this.zones = new Zones(zones);
        Map<Name, WideIp> byName = new HashMap<>();
        Map<WireName, WideIp> byWire = new HashMap<>();
        for (WideIp w : wideIps) {
            Zone zone = this.zones.find(w.name());
            if (zone == null) {
                throw new IllegalArgumentException("wide IP " + w.name() + " is not inside any served zone");
            }
            // A and AAAA records at the name are allowed: only the return-to-dns method answers them.
            if (zone.rrset(w.name(), Type.CNAME) != null) {
                throw new IllegalArgumentException("wide IP " + w.name() + " also has a CNAME in zone " + zone.origin()
                        + "; a name is either an alias or a wide IP");
            }
            if (byName.put(w.name(), w) != null) {
                throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
            }
            byWire.put(WireName.of(w.name()), w);
        }
        this.wideIps = Map.copyOf(byName);
        this.wideIpsByWire = Map.copyOf(byWire);
    }

    public Zones zones() {
        return zones;
    }

    public WideIp wideIp(Name name) {
        return wideIps.get(name);
    }

    WideIp wideIp(WireName name) {
        return wideIpsByWire.get(name);
    }

    public Map<Name, WideIp> wideIps() {
        return wideIps;
    }
}
