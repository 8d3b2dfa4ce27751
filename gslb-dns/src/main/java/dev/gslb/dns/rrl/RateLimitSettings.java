package dev.gslb.dns.rrl;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.CidrSet;
import java.time.Duration;
import java.util.List;

/**
 * Response-rate limiting (docs/security.md "Response-rate limiting"), as BIND, Knot and NSD do it.
 *
 * @param responsesPerSecond answers per second to one source network for one response class; 0 = off
 * @param slip               every Nth answer that would be dropped goes out truncated (TC, or BADCOOKIE to
 *                           a client that sent a cookie) so a real resolver retries over TCP; 0 = drop all
 * @param window             how long excess is remembered: a network stays limited until its average over
 *                           this window is below the rate
 * @param ipv4Prefix         IPv4 sources are grouped by this prefix (one spoofed /24 is one network)
 * @param ipv6Prefix         IPv6 sources are grouped by this prefix
 * @param exempt             sources never limited
 * @param tableSize          networks x classes tracked at once; fixed, so a flood from millions of
 *                           sources costs no more memory (8 bytes each)
 */
public record RateLimitSettings(
        int responsesPerSecond,
        int slip,
        Duration window,
        int ipv4Prefix,
        int ipv6Prefix,
        CidrSet exempt,
        int tableSize) {
    public static final int MAX_RATE = 1_000_000;
    public static final int MAX_SLIP = 15;

    /** NSD's rate and slip, BIND's window and prefixes; loopback exempt (monitoring, tests, the benchmark). */
    public static final Setting<Integer> RESPONSES_PER_SECOND = Setting.integer(
            "responses-per-second", 200, 0, MAX_RATE, "per source network and response class; 0 = off (NSD's)");

    public static final Setting<Integer> SLIP =
            Setting.integer("slip", 2, 0, MAX_SLIP, "every Nth withheld answer goes out truncated; 0 = drop all");
    public static final Setting<Duration> WINDOW = Setting.duration(
                    "window", Duration.ofSeconds(15), "how long excess is remembered (BIND's)")
            .check("1s..1h", w -> {
                if (w.compareTo(Duration.ofSeconds(1)) < 0 || w.compareTo(Duration.ofHours(1)) > 0) {
                    throw new IllegalArgumentException("window must be 1s to 1h");
                }
            });
    public static final Setting<Integer> IPV4_PREFIX =
            Setting.integer("ipv4-prefix", 24, 8, 32, "IPv4 sources grouped into networks of this size");
    public static final Setting<Integer> IPV6_PREFIX =
            Setting.integer("ipv6-prefix", 56, 16, 128, "IPv6 sources grouped into networks of this size");
    private static final List<Cidr> LOOPBACK = List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1/128"));
    public static final Setting<CidrSet> EXEMPT = Setting.list(
                    "exempt", Cidr.class, LOOPBACK, "never limited (a list here replaces it)")
            .map(RateLimitSettings::exempt, exempt(LOOPBACK));
    public static final Setting<Integer> TABLE_SIZE =
            Setting.integer("table-size", 1 << 18, 1024, 1 << 26, "tracked network/class pairs, 8 bytes each, fixed");

    public static final SettingsTable<RateLimitSettings> SETTINGS = SettingsTable.of(
            RateLimitSettings.class, RESPONSES_PER_SECOND, SLIP, WINDOW, IPV4_PREFIX, IPV6_PREFIX, EXEMPT, TABLE_SIZE);

    public static final RateLimitSettings DEFAULTS = SETTINGS.defaults();

    private static CidrSet exempt(List<Cidr> cidrs) {
        return CidrSet.of(cidrs, "rate-limit exempt");
    }

    public boolean enabled() {
        return responsesPerSecond > 0;
    }

    public RateLimitSettings withRate(int perSecond) {
        return SETTINGS.with(this, RESPONSES_PER_SECOND, perSecond);
    }

    public RateLimitSettings withExempt(CidrSet exempt) {
        return SETTINGS.with(this, EXEMPT, exempt);
    }
}
