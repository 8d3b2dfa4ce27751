package dev.gslb.probe.schedule;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.settings.Bounds;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The {@code probe:} section: how LDNS are measured, the proximity table's TTLs and bounds, and its
 * H2 file (README "Probing").
 *
 * @param store         the proximity table's H2 file ({@code var/proximity} beside the config)
 * @param flushInterval how often measurements are written to it
 */
public record Probing(ProbeSettings probes, ProximitySettings proximity, Path store, Duration flushInterval) {
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(5);

    /** The defaults, with the store in {@code folder}. */
    public static Probing defaults(Path folder) {
        return new Probing(
                ProbeSettings.defaults(),
                ProximitySettings.DEFAULTS,
                folder.resolve("var/proximity"),
                DEFAULT_FLUSH_INTERVAL);
    }

    /** The same probing with its proximity table in another H2 file. */
    public Probing withStore(Path file) {
        return new Probing(probes, proximity, file, flushInterval);
    }

    /** Binds the section's keys; an absent key keeps its default, a given exclude list replaces it. */
    @JsonCreator
    public static Probing bind(
            @JsonProperty("source") InetAddress source,
            @JsonProperty("protocols") List<ProbeProtocol> protocols,
            @JsonProperty("samples") Integer samples,
            @JsonProperty("timeout") Duration timeout,
            @JsonProperty("rate") Integer rate,
            @JsonProperty("concurrency") Integer concurrency,
            @JsonProperty("min-interval") Duration minInterval,
            @JsonProperty("dns-port") Integer dnsPort,
            @JsonProperty("udp-port") Integer udpPort,
            @JsonProperty("exclude") List<String> exclude,
            @JsonProperty("queue") Integer queue,
            @JsonProperty("per-network") Integer perNetwork,
            @JsonProperty("path-ttl") Duration pathTtl,
            @JsonProperty("retry") Duration retry,
            @JsonProperty("inactive-ttl") Duration inactiveTtl,
            @JsonProperty("max-ldns") Integer maxLdns,
            @JsonProperty("new-ldns-per-network") Integer newLdnsPerNetwork,
            @JsonProperty("store") Path store,
            @JsonProperty("flush-interval") Duration flushInterval,
            @JsonProperty("refresh") Duration refresh,
            @JsonProperty("rtt-smoothing") Double rttSmoothing,
            @JacksonInject Path folder) {
        ProbeSettings d = ProbeSettings.defaults();
        ProximitySettings p = ProximitySettings.DEFAULTS;
        int newPerNetwork = Bounds.within(
                "new-ldns-per-network", requireNonNullElse(newLdnsPerNetwork, p.newPerNetwork()), 1, 1_000_000);
        return new Probing(
                new ProbeSettings(
                        requireNonNullElse(source, d.source()),
                        requireNonNullElse(protocols, d.protocols()),
                        Bounds.within("samples", requireNonNullElse(samples, d.samples()), 1, 100),
                        requireNonNullElse(timeout, d.timeout()),
                        Bounds.within("rate", requireNonNullElse(rate, d.ratePerSecond()), 1, 100_000),
                        Bounds.within("concurrency", requireNonNullElse(concurrency, d.concurrency()), 1, 10_000),
                        requireNonNullElse(minInterval, d.minInterval()),
                        Bounds.within("dns-port", requireNonNullElse(dnsPort, d.dnsPort()), 1, 65535),
                        Bounds.within("udp-port", requireNonNullElse(udpPort, d.udpPort()), 1, 65535),
                        exclude == null ? d.exclusions() : exclusions(exclude),
                        Bounds.within("queue", requireNonNullElse(queue, d.queueCapacity()), 1, 10_000_000),
                        Bounds.within("per-network", requireNonNullElse(perNetwork, d.perNetwork()), 1, 100_000),
                        requireNonNullElse(refresh, d.refresh()),
                        requireNonNullElse(rttSmoothing, d.rttSmoothing())),
                new ProximitySettings(
                        requireNonNullElse(pathTtl, p.pathTtl()),
                        requireNonNullElse(retry, p.retry()),
                        requireNonNullElse(inactiveTtl, p.inactiveTtl()),
                        Bounds.within("max-ldns", requireNonNullElse(maxLdns, p.maxLdns()), 1, 100_000_000),
                        newPerNetwork,
                        Math.max(p.newPerNetworkBurst(), newPerNetwork)),
                requireNonNullElse(store, folder.resolve("var/proximity")),
                requireNonNullElse(flushInterval, DEFAULT_FLUSH_INTERVAL));
    }

    /** CIDRs in canonical form, and {@value ProbeSettings#OWN_ADDRESSES}. */
    private static List<String> exclusions(List<String> given) {
        return given.stream()
                .map(text -> {
                    if (text.equals(ProbeSettings.OWN_ADDRESSES)) {
                        return text;
                    }
                    try {
                        return Cidr.parse(text).toString();
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "exclude: " + e.getMessage() + " (or " + ProbeSettings.OWN_ADDRESSES + ")", e);
                    }
                })
                .toList();
    }
}
