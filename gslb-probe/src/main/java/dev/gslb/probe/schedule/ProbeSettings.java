package dev.gslb.probe.schedule;

import dev.gslb.probe.ProbeProtocol;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * How this instance probes (README "Probing" lists the defaults).
 *
 * @param source        address probes are sent from (the ISP link of this data center); any = kernel's choice
 * @param protocols     tried in this order; the first that gets any reply wins
 * @param samples       probes per protocol per round
 * @param timeout       how long one probe waits for its reply
 * @param ratePerSecond global cap on probe packets per second
 * @param concurrency   LDNS measured at the same time
 * @param minInterval   an LDNS is measured at most once per this interval
 * @param dnsPort       port of DNS_DOT, DNS_REV and TCP probes (53; other values for tests)
 * @param udpPort       port of the UDP probe (53)
 * @param exclusions    CIDRs never probed
 * @param queueCapacity requests waiting beyond this are dropped (and counted)
 */
public record ProbeSettings(InetAddress source, List<ProbeProtocol> protocols, int samples, Duration timeout,
                            int ratePerSecond, int concurrency, Duration minInterval, int dnsPort, int udpPort,
                            List<String> exclusions, int queueCapacity) {
    /** Never probed whatever the configuration adds: this-network, multicast and reserved space. */
    public static final List<String> ALWAYS_EXCLUDED = List.of("0.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4", "::/128",
            "ff00::/8");

    public static ProbeSettings defaults() {
        return new ProbeSettings(InetAddress.ofLiteral("0.0.0.0"), List.of(ProbeProtocol.values()), 3,
                Duration.ofSeconds(2), 200, 64, Duration.ofSeconds(60), 53, 53, List.of(), 10_000);
    }

    public ProbeSettings {
        protocols = List.copyOf(protocols);
        exclusions = List.copyOf(exclusions);
        if (samples < 1 || ratePerSecond < 1 || concurrency < 1 || queueCapacity < 1) {
            throw new IllegalArgumentException("samples, rate, concurrency and queue must be at least 1");
        }
    }
}
