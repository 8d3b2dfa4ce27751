package dev.gslb.dns.zone;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.xbill.DNS.Name;

/** The zones one server is authoritative for; finds the zone of a name by its closest apex. */
public final class Zones {
    private final Map<Name, Zone> byOrigin;
    private final int maxLabels;

    public Zones(List<Zone> zones) {
        Map<Name, Zone> m = new HashMap<>();
        int max = 0;
        for (Zone z : zones) {
            if (m.putIfAbsent(z.origin(), z) != null) {
                throw new IllegalArgumentException("zone " + z.origin() + " is loaded twice");
            }
            max = Math.max(max, z.origin().labels());
        }
        this.byOrigin = Map.copyOf(m);
        this.maxLabels = max;
    }

    /** The most specific served zone containing {@code name}, or null (the answer is REFUSED). */
    public Zone find(Name name) {
        for (int strip = Math.max(0, name.labels() - maxLabels); strip < name.labels(); strip++) {
            Zone z = byOrigin.get(strip == 0 ? name : new Name(name, strip));
            if (z != null) {
                return z;
            }
        }
        return null;
    }

    public List<Zone> all() {
        return List.copyOf(byOrigin.values());
    }
}
