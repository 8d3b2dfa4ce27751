package dev.gslb.dns.answer;

import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.settings.ByteSize;
import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.time.Duration;

/**
 * How queries are answered (docs/configuration.md "Every key and its default", keys under
 * {@code dns:}).
 *
 * @param ednsUdpSize    the EDNS size we advertise and the cap on UDP answers (512..4096)
 * @param cookies        DNS cookies (RFC 7873/9018): answer client cookies with server cookies
 * @param cookieRotation how often the cookie secret changes (the previous one stays valid)
 * @param cacheBytes     memory for prepared static answers
 * @param rateLimit      response-rate limiting of UDP answers
 * @param signaturesPerSecond DNSSEC signings the query path may do a second (0: no limit)
 */
public record AnswerSettings(
        int ednsUdpSize,
        boolean cookies,
        Duration cookieRotation,
        long cacheBytes,
        RateLimitSettings rateLimit,
        int signaturesPerSecond) {
    /** DNS flag day 2020's size. */
    public static final int DEFAULT_EDNS_UDP_SIZE = 1232;

    public static final Setting<Integer> EDNS_UDP_SIZE = Setting.of(
                    "edns-udp-size",
                    Integer.class,
                    DEFAULT_EDNS_UDP_SIZE,
                    "advertised EDNS size and cap on UDP answers (512..4096)")
            .check("512..4096", size -> {
                if (size < 512 || size > 4096) {
                    throw new IllegalArgumentException("edns-udp-size must be 512..4096");
                }
            });
    public static final Setting<Boolean> COOKIES =
            Setting.of("cookies", Boolean.class, true, "DNS cookies, RFC 7873/9018");
    public static final Setting<Duration> COOKIE_ROTATION = Setting.duration(
            "cookie-rotation", Duration.ofDays(1), "a new cookie secret this often; the previous one stays valid");
    public static final Setting<Long> ANSWER_CACHE = Setting.of(
                    "answer-cache", ByteSize.class, new ByteSize(32L << 20), "memory for prepared static answers")
            .map(ByteSize::bytes, 32L << 20)
            .check("64KiB..4GiB", bytes -> {
                if (bytes < (64 << 10) || bytes > (4L << 30)) {
                    throw new IllegalArgumentException("answer-cache must be 64KiB..4GiB");
                }
            });
    public static final Setting<RateLimitSettings> RATE_LIMIT = Setting.of(
                    "rate-limit",
                    RateLimitSettings.class,
                    RateLimitSettings.DEFAULTS,
                    "response-rate limiting of UDP answers (its keys below)")
            .shown("see dns.rate-limit");
    /**
     * About a tenth of a core's second at ECDSA P-256's cost: what a reload or a key roll re-signs
     * at once in a zone of a few hundred names, far less than a flood of random names would buy.
     */
    public static final Setting<Integer> SIGNATURES_PER_SECOND = Setting.integer(
            "signatures-per-second",
            1000,
            0,
            1_000_000,
            "DNSSEC signings a second over all zones (new names, expiring signatures); beyond it an answer"
                    + " whose signature is not kept is SERVFAIL; 0 = no limit");

    public static final SettingsTable<AnswerSettings> SETTINGS = SettingsTable.of(
            AnswerSettings.class,
            EDNS_UDP_SIZE,
            COOKIES,
            COOKIE_ROTATION,
            ANSWER_CACHE,
            RATE_LIMIT,
            SIGNATURES_PER_SECOND);

    public static final AnswerSettings DEFAULTS = SETTINGS.defaults();

    public AnswerSettings withRateLimit(RateLimitSettings r) {
        return SETTINGS.with(this, RATE_LIMIT, r);
    }
}
