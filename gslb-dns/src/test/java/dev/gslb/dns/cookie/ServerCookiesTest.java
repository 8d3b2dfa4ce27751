package dev.gslb.dns.cookie;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.Address;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Server cookies are RFC 9018's, byte for byte, and are accepted only while they should be. */
class ServerCookiesTest {
    private static final HexFormat HEX = HexFormat.of();

    @ParameterizedTest(name = "RFC 9018 {0}")
    @CsvSource({
        "A.1, e5e973e5a6b2a43f48e7dc849e37bfcf, 2464c4abcf10c957, 198.51.100.100, 1559731985, 010000005cf79f111f8130c3eee29480",
        "A.2, e5e973e5a6b2a43f48e7dc849e37bfcf, 2464c4abcf10c957, 198.51.100.100, 1559734385, 010000005cf7a871d4a564a1442aca77",
        "A.3, e5e973e5a6b2a43f48e7dc849e37bfcf, fc93fc62807ddb86, 203.0.113.203, 1559734700, 010000005cf7a9acf73a7810aca2381e",
        "A.4, 445536bcd2513298075a5d379663c962, 22681ab97d52c298, 2001:db8:220:1:59de:d0f4:8769:82b8, 1559741961,"
                + " 010000005cf7c609a6bb79d16625507a",
    })
    void reproducesThePublishedTestVectors(
            String vector, String secret, String clientCookie, String ip, long at, String serverCookie) {
        ServerCookies cookies = ServerCookies.withSecret(HEX.parseHex(secret));
        byte[] option = HEX.parseHex(clientCookie + "00".repeat(16));
        cookies.write(option, 0, Address.parse(ip).hi(), Address.parse(ip).lo(), option, 8, at);
        assertThat(HEX.formatHex(option, 8, 24)).isEqualTo(serverCookie);
        assertThat(cookies.valid(
                        option, 0, 24, Address.parse(ip).hi(), Address.parse(ip).lo(), at))
                .isTrue();
    }

    @Test
    void acceptsOnlyItsOwnFreshCookiesForTheSameClient() {
        AtomicLong now = new AtomicLong(1_800_000_000L);
        ServerCookies cookies = new ServerCookies(Duration.ofDays(1), now.get());
        Address client = Address.parse("198.18.0.10");
        byte[] option = HEX.parseHex("0102030405060708" + "00".repeat(16));
        cookies.write(option, 0, client.hi(), client.lo(), option, 8, now.get());
        assertThat(cookies.valid(option, 0, 24, client.hi(), client.lo(), now.get()))
                .isTrue();
        assertThat(cookies.valid(
                        option,
                        0,
                        24,
                        Address.parse("198.18.0.11").hi(),
                        Address.parse("198.18.0.11").lo(),
                        now.get()))
                .as("another address")
                .isFalse();

        byte[] tampered = option.clone();
        tampered[23] ^= 1;
        assertThat(cookies.valid(tampered, 0, 24, client.hi(), client.lo(), now.get()))
                .as("a changed hash")
                .isFalse();
        byte[] otherClientCookie = option.clone();
        otherClientCookie[0] ^= 1;
        assertThat(cookies.valid(otherClientCookie, 0, 24, client.hi(), client.lo(), now.get()))
                .as("another client cookie")
                .isFalse();
        assertThat(cookies.valid(option, 0, 16, client.hi(), client.lo(), now.get()))
                .as("a short server cookie is not ours")
                .isFalse();

        now.addAndGet(3599);
        assertThat(cookies.valid(option, 0, 24, client.hi(), client.lo(), now.get()))
                .as("within the hour")
                .isTrue();
        now.addAndGet(2);
        assertThat(cookies.valid(option, 0, 24, client.hi(), client.lo(), now.get()))
                .as("older than an hour (RFC 9018 4.3)")
                .isFalse();
    }

    @Test
    void aRotatedSecretStillAcceptsCookiesOfThePreviousOne() {
        AtomicLong now = new AtomicLong(1_800_000_000L);
        ServerCookies cookies = new ServerCookies(Duration.ofHours(1), now.get());
        Address client = Address.parse("2001:db8::53");
        byte[] before = HEX.parseHex("a1a2a3a4a5a6a7a8" + "00".repeat(16));
        now.addAndGet(3590);
        cookies.write(before, 0, client.hi(), client.lo(), before, 8, now.get());
        now.addAndGet(20); // the secret rotates here
        byte[] after = before.clone();
        cookies.write(after, 0, client.hi(), client.lo(), after, 8, now.get());
        assertThat(HEX.formatHex(after, 16, 24))
                .as("a new secret makes another hash")
                .isNotEqualTo(HEX.formatHex(before, 16, 24));
        assertThat(cookies.valid(before, 0, 24, client.hi(), client.lo(), now.get()))
                .as("made with the previous secret")
                .isTrue();
        assertThat(cookies.valid(after, 0, 24, client.hi(), client.lo(), now.get()))
                .isTrue();
        now.addAndGet(3600); // rotated again: the first secret is gone (and the cookie too old anyway)
        assertThat(cookies.valid(before, 0, 24, client.hi(), client.lo(), now.get()))
                .isFalse();
    }
}
