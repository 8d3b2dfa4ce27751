package dev.gslb.dns.rrl;

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
        if (responsesPerSecond < 0 || responsesPerSecond > MAX_RATE) {
            throw new IllegalArgumentException("responses-per-second must be 0 (off) to " + MAX_RATE);
        }
        if (slip < 0 || slip > MAX_SLIP) {
            throw new IllegalArgumentException("slip must be 0 (never) to " + MAX_SLIP);
        }
        if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("window must be 1s to 1h");
        }
        if (ipv4Prefix < 8 || ipv4Prefix > 32 || ipv6Prefix < 16 || ipv6Prefix > 128) {
            throw new IllegalArgumentException("ipv4-prefix must be 8..32 and ipv6-prefix 16..128");
        }
        if (tableSize < 1024 || tableSize > (1 << 26)) {
            throw new IllegalArgumentException("table-size must be 1024 to " + (1 << 26));
        }
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
