package dev.gslb.dns.rrl;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.gslb.settings.Bounds;
import dev.gslb.topology.Cidr;
import dev.gslb.topology.CidrSet;
import java.time.Duration;
import java.util.List;

/**
 * Response-rate limiting (README "Response-rate limiting"), as BIND, Knot and NSD do it.
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
    /** NSD's rate and slip, BIND's window and prefixes; loopback exempt (monitoring, tests, the benchmark). */
    public static final RateLimitSettings DEFAULTS = new RateLimitSettings(
            200,
            2,
            Duration.ofSeconds(15),
            24,
            56,
            CidrSet.parse(List.of("127.0.0.0/8", "::1/128"), "rate-limit exempt"),
            1 << 18);

    public static final int MAX_RATE = 1_000_000;
    public static final int MAX_SLIP = 15;

    public RateLimitSettings {
        Bounds.within("responses-per-second", responsesPerSecond, 0, MAX_RATE);
        Bounds.within("slip", slip, 0, MAX_SLIP);
        if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("window must be 1s to 1h");
        }
        Bounds.within("ipv4-prefix", ipv4Prefix, 8, 32);
        Bounds.within("ipv6-prefix", ipv6Prefix, 16, 128);
        Bounds.within("table-size", tableSize, 1024, 1 << 26);
    }

    /** The {@code dns.rate-limit:} keys; an absent key keeps its default, a given exempt list replaces it. */
    @JsonCreator
    public static RateLimitSettings bind(
            @JsonProperty("responses-per-second") Integer responsesPerSecond,
            @JsonProperty("slip") Integer slip,
            @JsonProperty("window") Duration window,
            @JsonProperty("ipv4-prefix") Integer ipv4Prefix,
            @JsonProperty("ipv6-prefix") Integer ipv6Prefix,
            @JsonProperty("exempt") List<Cidr> exempt,
            @JsonProperty("table-size") Integer tableSize) {
        RateLimitSettings d = DEFAULTS;
        return new RateLimitSettings(
                requireNonNullElse(responsesPerSecond, d.responsesPerSecond()),
                requireNonNullElse(slip, d.slip()),
                requireNonNullElse(window, d.window()),
                requireNonNullElse(ipv4Prefix, d.ipv4Prefix()),
                requireNonNullElse(ipv6Prefix, d.ipv6Prefix()),
                exempt == null ? d.exempt() : CidrSet.of(exempt, "rate-limit exempt"),
                requireNonNullElse(tableSize, d.tableSize()));
    }

    public boolean enabled() {
        return responsesPerSecond > 0;
    }

    public RateLimitSettings withRate(int perSecond) {
        return new RateLimitSettings(perSecond, slip, window, ipv4Prefix, ipv6Prefix, exempt, tableSize);
    }

    public RateLimitSettings withExempt(CidrSet exempt) {
        return new RateLimitSettings(responsesPerSecond, slip, window, ipv4Prefix, ipv6Prefix, exempt, tableSize);
    }
}
