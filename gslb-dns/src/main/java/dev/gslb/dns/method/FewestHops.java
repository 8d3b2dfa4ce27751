package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;

/** Fewest router hops to the LDNS wins (hops known only from ICMP TTLs); lower RTT breaks ties. */
public final class FewestHops extends PathMetricMethod {
    public FewestHops(ProximityTable table, long pathTtlMillis) {
        super(table, pathTtlMillis);
    }

    @Override
    public String name() {
        return "fewest-hops";
    }

    @Override
    boolean measured(LdnsEntry e, int i) {
        return e.hops(i) > 0;
    }

    @Override
    boolean better(LdnsEntry e, int a, int b) {
        return e.hops(a) < e.hops(b) || e.hops(a) == e.hops(b) && e.rttMicros(a) < e.rttMicros(b);
    }

    @Override
    String describe(Path p) {
        return "hops " + p.hops() + ", rtt " + p.rttMicros() + " us";
    }
}
