package dev.gslb.dns.method;

import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;

/** The data center whose probes to the LDNS were answered most often wins; lower RTT breaks ties. */
public final class CompletionRate extends PathMetricMethod {
    public CompletionRate(ProximityTable table, long pathTtlMillis) {
        super(table, pathTtlMillis);
    }

    @Override
    public String name() {
        return "completion-rate";
    }

    @Override
    boolean better(LdnsEntry e, int a, int b) {
        return e.completion(a) > e.completion(b)
                || e.completion(a) == e.completion(b) && e.rttMicros(a) < e.rttMicros(b);
    }

    @Override
    String describe(Path p) {
        return "completion " + p.completion() + ", rtt " + p.rttMicros() + " us";
    }
}
