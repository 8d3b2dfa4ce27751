package dev.gslb.dns.rrl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.CidrSet;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The rate limiter's table: per network and class, slip, transitions, and a fixed size under a spoofed flood. */
class ResponseRateLimiterTest {
    private static final RateLimitSettings SETTINGS = new RateLimitSettings(
            100, 2, Duration.ofSeconds(15), 24, 56, CidrSet.parse(List.of("127.0.0.0/8"), "exempt"), 1 << 16);
    /** The limiter's time stands still: what is counted is what the loop sends, however slowly it runs. */
    private static final LongSupplier STILL = () -> 0L;

    private static final long WWW_A = ResponseRateLimiter.responseClass(ResponseRateLimiter.Kind.ANSWER, 42, 1);

    @Test
    void aBurstIsAnsweredUpToTheRateThenDroppedWithEverySecondOneSlipped() {
        ResponseRateLimiter limiter = new ResponseRateLimiter(SETTINGS, STILL);
        InetAddress victim = InetAddress.ofLiteral("198.18.7.1");
        int pass = 0;
        int slip = 0;
        int drop = 0;
        int started = 0;
        for (int i = 0; i < 1000; i++) {
            int v = check(limiter, InetAddress.ofLiteral("198.18.7." + (i % 250 + 1)), WWW_A); // one /24
            switch (v & ResponseRateLimiter.ACTION) {
                case ResponseRateLimiter.PASS -> pass++;
                case ResponseRateLimiter.SLIP -> slip++;
                default -> drop++;
            }
            started += (v & ResponseRateLimiter.STARTED) != 0 ? 1 : 0;
        }
        assertThat(pass).as("a second's worth").isEqualTo(100);
        assertThat(slip).isEqualTo((1000 - pass) / 2);
        assertThat(drop).isEqualTo(1000 - pass - slip);
        assertThat(started).as("one transition, logged once").isEqualTo(1);
        assertThat(check(limiter, victim, ResponseRateLimiter.responseClass(ResponseRateLimiter.Kind.ANSWER, 43, 1))
                        & ResponseRateLimiter.ACTION)
                .as("another name from the same network")
                .isEqualTo(ResponseRateLimiter.PASS);
        assertThat(check(limiter, InetAddress.ofLiteral("198.18.8.1"), WWW_A) & ResponseRateLimiter.ACTION)
                .as("the same name to another network")
                .isEqualTo(ResponseRateLimiter.PASS);
        assertThat(exempt(limiter, InetAddress.ofLiteral("127.0.0.1"))).isTrue();
        assertThat(exempt(limiter, victim)).isFalse();
    }

    @Test
    void aMillionSpoofedSourcesDoNotPushOutALimitedNetwork() {
        ResponseRateLimiter limiter = new ResponseRateLimiter(SETTINGS, STILL);
        InetAddress victim = InetAddress.ofLiteral("198.18.7.1");
        for (int i = 0; i < 1000; i++) {
            check(limiter, victim, WWW_A);
        }
        Random random = new Random(1);
        byte[] a = new byte[4];
        for (int i = 0; i < 1_000_000; i++) {
            random.nextBytes(a);
            a[0] = (byte) (1 + (a[0] & 0x7F));
            check(
                    limiter,
                    InetAddress.ofLiteral((a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + ".1"),
                    WWW_A);
        }
        assertThat(check(limiter, victim, WWW_A) & ResponseRateLimiter.ACTION)
                .as("still limited: the table kept it")
                .isNotEqualTo(ResponseRateLimiter.PASS);
    }

    @Test
    void anIpv6NetworkIsOneSlashFiftySix() {
        ResponseRateLimiter limiter = new ResponseRateLimiter(SETTINGS, STILL);
        for (int i = 0; i < 300; i++) {
            check(
                    limiter,
                    InetAddress.ofLiteral("2001:db8:0:" + Integer.toHexString(i % 200) + "::" + Integer.toHexString(i)),
                    WWW_A); // all in 2001:db8::/56
        }
        assertThat(check(limiter, InetAddress.ofLiteral("2001:db8:0:ff::1"), WWW_A) & ResponseRateLimiter.ACTION)
                .isNotEqualTo(ResponseRateLimiter.PASS);
        assertThat(check(limiter, InetAddress.ofLiteral("2001:db8:0:100::1"), WWW_A) & ResponseRateLimiter.ACTION)
                .as("the next /56")
                .isEqualTo(ResponseRateLimiter.PASS);
        assertThat(networkOf(limiter, InetAddress.ofLiteral("2001:db8:0:ff::1")))
                .isEqualTo("2001:db8::/56");
        assertThat(networkOf(limiter, InetAddress.ofLiteral("198.18.7.200"))).isEqualTo("198.18.7.0/24");
    }

    // The limiter takes the 128-bit form (IPv4 mapped): these spell the client as an address.

    private static int check(ResponseRateLimiter limiter, InetAddress client, long responseClass) {
        return limiter.check(Cidr.hiOf(client), Cidr.loOf(client), responseClass);
    }

    private static boolean exempt(ResponseRateLimiter limiter, InetAddress client) {
        return limiter.exempt(Cidr.hiOf(client), Cidr.loOf(client));
    }

    private static String networkOf(ResponseRateLimiter limiter, InetAddress client) {
        return limiter.networkOf(Cidr.hiOf(client), Cidr.loOf(client));
    }
}
