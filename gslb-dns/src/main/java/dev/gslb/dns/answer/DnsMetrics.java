package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.Signer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.xbill.DNS.Rcode;

/** Query counters, created up front so the query path only increments (lock-free adders). */
public final class DnsMetrics {
    public enum Drop {
        MALFORMED,
        NOT_A_QUERY,
        OVERSIZE,
        INTERNAL_ERROR,
        POLICY,
        RATE_LIMITED,
        TCP_CONNECTION_LIMIT,
        TCP_SOURCE_LIMIT,
        TCP_IDLE_CLOSED,
        TCP_ACCEPT_FAILED,
        TCP_QUERY_TIMEOUT,
        TCP_UNWRITABLE
    }

    /** What a query's COOKIE option held (RFC 7873); queries without one are not counted here. */
    public enum Cookie {
        CLIENT_ONLY,
        VALID,
        INVALID
    }

    private final Counter[][] answered = new Counter[Transport.values().length][24];
    private final Counter[] dropped = new Counter[Drop.values().length];
    private final Counter[] cookies = new Counter[Cookie.values().length];
    private final Counter slipped;
    private final Counter limited;
    private final Signer.Counts signing;

    public DnsMetrics(MeterRegistry registry) {
        for (Transport t : Transport.values()) {
            for (int rcode = 0; rcode < 24; rcode++) {
                answered[t.ordinal()][rcode] = Counter.builder("dns_responses")
                        .description("DNS responses sent, by transport and response code")
                        .tag("transport", t.name().toLowerCase(java.util.Locale.ROOT))
                        .tag("rcode", Rcode.string(rcode).toLowerCase(java.util.Locale.ROOT))
                        .register(registry);
            }
        }
        for (Drop d : Drop.values()) {
            dropped[d.ordinal()] = Counter.builder("dns_dropped")
                    .description("Packets or connections dropped without an answer, by reason")
                    .tag("reason", d.name().toLowerCase(java.util.Locale.ROOT))
                    .register(registry);
        }
        for (Cookie c : Cookie.values()) {
            cookies[c.ordinal()] = Counter.builder("dns_cookies")
                    .description("Queries that carried a DNS cookie, by what it held")
                    .tag("cookie", c.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
                    .register(registry);
        }
        limited = Counter.builder("dns_rate_limited")
                .tag("action", "dropped")
                .description("UDP answers withheld by response-rate limiting, by what was sent instead")
                .register(registry);
        slipped = Counter.builder("dns_rate_limited")
                .tag("action", "slipped")
                .description("UDP answers withheld by response-rate limiting, by what was sent instead")
                .register(registry);
        Counter made = signatures(registry, "made");
        Counter failed = signatures(registry, "failed");
        Counter overBudget = signatures(registry, "over-budget");
        signing = new Signer.Counts() {
            @Override
            public void made() {
                made.increment();
            }

            @Override
            public void failed() {
                failed.increment();
            }

            @Override
            public void overBudget() {
                overBudget.increment();
            }
        };
    }

    private static Counter signatures(MeterRegistry registry, String result) {
        return Counter.builder("dns_signatures")
                .tag("result", result)
                .description(
                        "DNSSEC signatures made, signings that failed (the previous signature served), and signings"
                                + " held back by dns.signatures-per-second")
                .register(registry);
    }

    /** Where the signers count signatures. */
    Signer.Counts signing() {
        return signing;
    }

    void answered(Transport t, int rcode) {
        answered[t.ordinal()][rcode < 24 ? rcode : 0].increment();
    }

    public void dropped(Drop reason) {
        dropped[reason.ordinal()].increment();
    }

    void cookie(Cookie c) {
        cookies[c.ordinal()].increment();
    }

    /** An answer the rate limiter withheld: dropped, or slipped (sent truncated or as BADCOOKIE instead). */
    void rateLimited(boolean slip) {
        (slip ? slipped : limited).increment();
        if (!slip) {
            dropped(Drop.RATE_LIMITED);
        }
    }
}
