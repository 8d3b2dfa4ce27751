package dev.gslb.probe.schedule;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * How this instance probes (docs/operator-guide.md "Measure resolvers" lists the defaults).
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
 * @param exclusions    CIDRs never probed, and {@value #OWN_ADDRESSES} for this host's addresses
 *                      ({@link #DEFAULT_EXCLUDED} unless the operator replaces it)
 * @param queueCapacity requests waiting beyond this are dropped (and counted)
 * @param perNetwork    probe requests one LDNS network (/24, /48) may raise a second (burst ten times that)
 * @param refresh       an LDNS in use gets its path re-measured when it is older than this, from the
 *                      same rate cap (most recent and most frequent askers first); zero: off
 * @param rttSmoothing  weight of a new round's RTT against this data center's previous one of the same
 *                      protocol (1 = no smoothing): rtt = w x new + (1 - w) x previous ({@link
 *                      dev.gslb.probe.RttEstimator}; a changed route restarts it)
 * @param checkFirst    a refresh of a known path sends one probe first, and the other samples only when
 *                      that one is lost or off the estimate
 */
public record ProbeSettings(
        InetAddress source,
        List<ProbeProtocol> protocols,
        int samples,
        Duration timeout,
        int ratePerSecond,
        int concurrency,
        Duration minInterval,
        int dnsPort,
        int udpPort,
        List<String> exclusions,
        int queueCapacity,
        int perNetwork,
        Duration refresh,
        double rttSmoothing,
        boolean checkFirst) {
    /** Under a minute, so a route change moves answers within one (with the scan's tick and sync). */
    public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(45);

    public static final double DEFAULT_RTT_SMOOTHING = 0.25;

    /** Settings with the default refresh and smoothing (tests that set the rest). */
    public ProbeSettings(
            InetAddress source,
            List<ProbeProtocol> protocols,
            int samples,
            Duration timeout,
            int ratePerSecond,
            int concurrency,
            Duration minInterval,
            int dnsPort,
            int udpPort,
            List<String> exclusions,
            int queueCapacity,
            int perNetwork) {
        this(
                source,
                protocols,
                samples,
                timeout,
                ratePerSecond,
                concurrency,
                minInterval,
                dnsPort,
                udpPort,
                exclusions,
                queueCapacity,
                perNetwork,
                DEFAULT_REFRESH,
                DEFAULT_RTT_SMOOTHING,
                true);
    }

    /** Never probed whatever the configuration adds: this-network, multicast and reserved space. */
    public static final List<String> ALWAYS_EXCLUDED =
            List.of("0.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4", "::/128", "ff00::/8");

    /** In an exclusion list: every address of this host's interfaces, as found at start. */
    public static final String OWN_ADDRESSES = "own-addresses";

    /**
     * Not probed unless the operator replaces the list: loopback, link-local, private (RFC 1918),
     * shared (CGNAT), unique-local, IETF-reserved and documentation space, and this host. F5 users
     * expect public LDNS only; a lab that probes 127/8 says so in its config.
     */
    public static final List<String> DEFAULT_EXCLUDED = List.of(
            "10.0.0.0/8",
            "100.64.0.0/10",
            "127.0.0.0/8",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.0.0.0/24",
            "192.0.2.0/24",
            "192.168.0.0/16",
            "198.51.100.0/24",
            "203.0.113.0/24",
            "::1/128",
            "fe80::/10",
            "fc00::/7",
            "2001:db8::/32",
            "100::/64",
            OWN_ADDRESSES);

    public static final Setting<InetAddress> SOURCE =
            Setting.of("source", InetAddress.class, InetAddress.ofLiteral("0.0.0.0"), "probes leave from this address");
    public static final Setting<List<ProbeProtocol>> PROTOCOLS =
            Setting.list("protocols", ProbeProtocol.class, List.of(ProbeProtocol.values()), "tried in this order");
    public static final Setting<Integer> SAMPLES =
            Setting.integer("samples", 3, 1, 100, "probes per protocol per round");
    public static final Setting<Duration> TIMEOUT = Setting.duration("timeout", Duration.ofSeconds(2), "per probe");
    public static final Setting<Integer> RATE =
            Setting.integer("rate", 200, 1, 100_000, "global cap, probe packets per second");
    public static final Setting<Integer> CONCURRENCY =
            Setting.integer("concurrency", 64, 1, 10_000, "LDNS measured at once");
    public static final Setting<Duration> MIN_INTERVAL =
            Setting.duration("min-interval", Duration.ofSeconds(30), "an LDNS is measured at most once per interval");
    public static final Setting<Integer> DNS_PORT =
            Setting.integer("dns-port", 53, 1, 65535, "port of DNS_DOT, DNS_REV and TCP probes");
    public static final Setting<Integer> UDP_PORT = Setting.integer("udp-port", 53, 1, 65535, "port of UDP probes");
    public static final Setting<List<String>> EXCLUDE = Setting.list(
                    "exclude", String.class, DEFAULT_EXCLUDED, "never probed; a list here replaces the default")
            .map(ProbeSettings::exclusions, DEFAULT_EXCLUDED);
    public static final Setting<Integer> QUEUE =
            Setting.integer("queue", 10_000, 1, 10_000_000, "probe requests waiting; more are dropped");
    public static final Setting<Integer> PER_NETWORK = Setting.integer(
            "per-network", 20, 1, 100_000, "probe requests one LDNS network may raise a second (burst 10x)");
    public static final Setting<Duration> REFRESH = Setting.duration(
            "refresh", DEFAULT_REFRESH, "paths of LDNS in use are re-measured when older than this (0 = off)");
    public static final Setting<Double> RTT_SMOOTHING = Setting.of(
                    "rtt-smoothing",
                    Double.class,
                    DEFAULT_RTT_SMOOTHING,
                    "weight of a new round's RTT in the path's estimate (1 = none)")
            .check("above 0, at most 1", w -> {
                if (!(w > 0 && w <= 1)) {
                    throw new IllegalArgumentException("rtt-smoothing must be above 0 and at most 1, not " + w);
                }
            });

    public static final Setting<Boolean> CHECK_FIRST = Setting.of(
            "check-first",
            Boolean.class,
            true,
            "a refresh sends one probe first, the other samples only when it is lost or off the estimate");

    public static final SettingsTable<ProbeSettings> SETTINGS = SettingsTable.of(
            ProbeSettings.class,
            SOURCE,
            PROTOCOLS,
            SAMPLES,
            TIMEOUT,
            RATE,
            CONCURRENCY,
            MIN_INTERVAL,
            DNS_PORT,
            UDP_PORT,
            EXCLUDE,
            QUEUE,
            PER_NETWORK,
            REFRESH,
            RTT_SMOOTHING,
            CHECK_FIRST);

    public static ProbeSettings defaults() {
        return SETTINGS.defaults();
    }

    /** These settings with another exclusion list (replacing the default one). */
    public ProbeSettings withExclusions(List<String> replacement) {
        return SETTINGS.with(this, EXCLUDE, replacement);
    }

    /** These settings with another refresh interval (tests). */
    public ProbeSettings withRefresh(Duration every) {
        return SETTINGS.with(this, REFRESH, every);
    }

    public ProbeSettings {
        protocols = List.copyOf(protocols);
        exclusions = List.copyOf(exclusions);
    }

    /** CIDRs in canonical form, and {@value #OWN_ADDRESSES}. */
    private static List<String> exclusions(List<String> given) {
        return given.stream()
                .map(text -> {
                    if (text.equals(OWN_ADDRESSES)) {
                        return text;
                    }
                    try {
                        return Cidr.parse(text).toString();
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "exclude: " + e.getMessage() + " (or " + OWN_ADDRESSES + ")", e);
                    }
                })
                .toList();
    }
}
