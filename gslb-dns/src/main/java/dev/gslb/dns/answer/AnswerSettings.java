package dev.gslb.dns.answer;

import dev.gslb.dns.rrl.RateLimitSettings;
import java.time.Duration;

/**
 * How queries are answered (README "Configuration", keys under {@code dns:}).
 *
 * @param ednsUdpSize    the EDNS size we advertise and the cap on UDP answers (512..4096)
 * @param cookies        DNS cookies (RFC 7873/9018): answer client cookies with server cookies
 * @param cookieRotation how often the cookie secret changes (the previous one stays valid)
 * @param cacheBytes     memory for prepared static answers
 * @param rateLimit      response-rate limiting of UDP answers
 */
public record AnswerSettings(
        int ednsUdpSize, boolean cookies, Duration cookieRotation, long cacheBytes, RateLimitSettings rateLimit) {
    /** DNS flag day 2020's size. */
    public static final int DEFAULT_EDNS_UDP_SIZE = 1232;

    public static final AnswerSettings DEFAULTS =
            new AnswerSettings(DEFAULT_EDNS_UDP_SIZE, true, Duration.ofDays(1), 32L << 20, RateLimitSettings.DEFAULTS);

    public AnswerSettings {
        if (ednsUdpSize < 512 || ednsUdpSize > 4096) {
            throw new IllegalArgumentException("edns-udp-size must be 512..4096");
        }
        if (cacheBytes < (64 << 10) || cacheBytes > (4L << 30)) {
            throw new IllegalArgumentException("answer-cache must be 64KiB..4GiB");
        }
    }

    public AnswerSettings withRateLimit(RateLimitSettings r) {
        return new AnswerSettings(ednsUdpSize, cookies, cookieRotation, cacheBytes, r);
    }
}
