package dev.gslb.dns.answer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.xbill.DNS.Rcode;

/** Query counters, created up front so the query path only increments (lock-free adders). */
public final class DnsMetrics {
    public enum Drop { MALFORMED, NOT_A_QUERY, INTERNAL_ERROR, TCP_CONNECTION_LIMIT, POLICY }

    private final Counter[][] answered = new Counter[Transport.values().length][24];
    private final Counter[] dropped = new Counter[Drop.values().length];

    public DnsMetrics(MeterRegistry registry) {
        for (Transport t : Transport.values()) {
            for (int rcode = 0; rcode < 24; rcode++) {
                answered[t.ordinal()][rcode] = Counter.builder("dns_responses")
                        .description("DNS responses sent, by transport and response code")
                        .tag("transport", t.name().toLowerCase())
                        .tag("rcode", Rcode.string(rcode).toLowerCase())
                        .register(registry);
            }
        }
        for (Drop d : Drop.values()) {
            dropped[d.ordinal()] = Counter.builder("dns_dropped")
                    .description("Packets or connections dropped without an answer, by reason")
                    .tag("reason", d.name().toLowerCase())
                    .register(registry);
        }
    }

    void answered(Transport t, int rcode) {
        answered[t.ordinal()][rcode < 24 ? rcode : 0].increment();
    }

    public void dropped(Drop reason) {
        dropped[reason.ordinal()].increment();
    }
}
