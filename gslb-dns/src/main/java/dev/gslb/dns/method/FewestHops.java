package dev.gslb.dns.method;

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
    boolean measured(Path p) {
        return p.hops() > 0;
    }

    @Override
    boolean better(Path a, Path b) {
        return a.hops() < b.hops() || a.hops() == b.hops() && a.rttMicros() < b.rttMicros();
    }

    @Override
    String describe(Path p) {
        return "hops " + p.hops() + ", rtt " + p.rttMicros() + " us";
    }
}
