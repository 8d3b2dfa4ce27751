package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CidrTest {
    @Test
    void parsesAndPrintsBothFamilies() {
        assertThat(Cidr.parse("202.106.0.0/16")).hasToString("202.106.0.0/16");
        assertThat(Cidr.parse(" 2001:db8::/32 ")).hasToString("2001:db8::/32");
        assertThat(Cidr.parse("192.0.2.1")).hasToString("192.0.2.1/32");
        assertThat(Cidr.parse("2001:db8::/32").ipv4()).isFalse();
    }

    @Test
    void printsIpv4ByHandAsTheLibraryDoes() {
        var random = new java.util.Random(38);
        for (int i = 0; i < 20_000; i++) {
            int length = 1 + random.nextInt(32);
            long address = random.nextInt() & 0xFFFF_FFFFL & -(1L << (32 - length));
            Cidr c = new Cidr(0, Cidr.V4_MAPPED_LO | address, length, true);
            assertThat(c).hasToString(c.ipAddress().toPrefixBlock().toCanonicalString());
            assertThat(Cidr.parse(c.toString())).isEqualTo(c);
        }
    }

    /** Random IPv6 prefixes, many of their groups zero (so every run of zeros is compressed somewhere). */
    private static Cidr randomIpv6(java.util.Random random) {
        int length = 1 + random.nextInt(128);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            long g = random.nextInt(3) == 0 ? random.nextInt(0x10000) : random.nextInt(4) == 0 ? 1 : 0;
            if (i < 4) {
                hi = hi << 16 | g;
            } else {
                lo = lo << 16 | g;
            }
        }
        hi &= length >= 64 ? -1L : ~(-1L >>> length); // no host bit
        lo &= length <= 64 ? 0 : length == 128 ? -1L : ~(-1L >>> (length - 64));
        if (hi == 0 && lo >>> 32 == 0xFFFF) {
            lo ^= 1L << 32; // not IPv4-mapped (a network bit: the length is 96 or more)
        }
        return new Cidr(hi, lo, length, false);
    }

    @Test
    void printsIpv6ByHandAsTheLibraryDoes() throws Exception {
        var random = new java.util.Random(49);
        for (int i = 0; i < 20_000; i++) {
            Cidr c = randomIpv6(random);
            assertThat(c).hasToString(c.ipAddress().toPrefixBlock().toCanonicalString());
        }
        // a prefix that keeps its host bits (Cidr.of) prints its network, both families
        assertThat(Cidr.of(java.net.InetAddress.getByName("2001:db8::1"), 32)).hasToString("2001:db8::/32");
        assertThat(Cidr.of(java.net.InetAddress.getByName("192.0.2.77"), 24)).hasToString("192.0.2.0/24");
    }

    /** The hand-parsed IPv6 path gives what the library gives, over every way the library writes an address. */
    @Test
    void plainIpv6IsParsedAsTheLibraryParsesIt() throws Exception {
        var random = new java.util.Random(50);
        for (int i = 0; i < 20_000; i++) {
            Cidr c = randomIpv6(random);
            var ip = c.ipAddress().getLower().withoutPrefixLength();
            for (String text : List.of(
                    ip.toCanonicalString(),
                    ip.toFullString(),
                    ip.toNormalizedString(),
                    ip.toCompressedString(),
                    ip.toFullString().toUpperCase(java.util.Locale.ROOT))) {
                assertThat(Cidr.parse(text + "/" + c.length())).as(text).isEqualTo(c);
            }
        }
        assertThat(Cidr.parse("2001:db8::1")).isEqualTo(Cidr.of(java.net.InetAddress.getByName("2001:db8::1"), 128));
        for (String bad : List.of(
                "1:::2/64",
                "1::2::3/64",
                ":1::/16",
                "1::/16:",
                "1:2:3:4:5:6:7:8:9/64",
                "1:2:3:4:5:6:7::8/64",
                "12345::/16",
                "g::/16",
                "2001:db8:/32",
                "2001:db8::1/32",
                "::ffff:a00:0/104",
                "\u0663::/16",
                "::/0")) {
            assertThatThrownBy(() -> Cidr.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /**
     * Differential: texts made by mutating written addresses (a character dropped, doubled or
     * replaced by one of an address's own) are taken or refused by hand exactly as by the library.
     */
    @Test
    void byHandAgreesWithTheLibraryOnMutatedTexts() {
        var random = new java.util.Random(51);
        String alphabet = "0123456789abcdefABCDEF:.:/g%";
        for (int i = 0; i < 100_000; i++) {
            Cidr c = random.nextBoolean() ? randomIpv6(random) : Cidr.parse("10.0.0.0/8");
            var ip = c.ipAddress().getLower().withoutPrefixLength();
            StringBuilder t = new StringBuilder(
                    (random.nextBoolean() ? ip.toCanonicalString() : ip.toFullString()) + "/" + c.length());
            for (int m = random.nextInt(3); m >= 0; m--) {
                int at = random.nextInt(t.length());
                switch (random.nextInt(3)) {
                    case 0 -> t.deleteCharAt(at);
                    case 1 -> t.insert(at, t.charAt(at));
                    default -> t.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String text = t.toString();
            Object byHand = outcome(() -> Cidr.parse(text, true));
            Object byLibrary = outcome(() -> Cidr.parse(text, false));
            assertThat(byHand).as(text).isEqualTo(byLibrary);
        }
    }

    private static Object outcome(java.util.function.Supplier<Cidr> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            return "refused";
        }
    }

    @Test
    void equalsAndHashCodeTakeEveryField() {
        Cidr c = Cidr.parse("202.106.0.0/16");
        assertThat(Cidr.parse(" 202.106.0.0/16")).isEqualTo(c).hasSameHashCodeAs(c);
        assertThat(Cidr.parse("2001:db8::/32")).isEqualTo(Cidr.parse("2001:0db8::/32"));
        assertThat(new Cidr(c.hi(), c.lo(), 17, true)).isNotEqualTo(c);
        assertThat(new Cidr(c.hi(), c.lo(), c.length(), false)).isNotEqualTo(c);
        assertThat(new Cidr(c.hi(), c.lo() + 1, c.length(), true)).isNotEqualTo(c);
        assertThat(new Cidr(c.hi() + 1, c.lo(), c.length(), true)).isNotEqualTo(c);
        assertThat(c).isNotEqualTo(c.toString());
    }

    /** The dotted-quad check by hand takes exactly what the regex it replaced took, over mutated and random texts. */
    @Test
    void dottedQuadByHandAgreesWithTheRegex() {
        var regex = java.util.regex.Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
        var random = new java.util.Random(52);
        String alphabet = "0123456789.:/a \u0663";
        for (int i = 0; i < 200_000; i++) {
            StringBuilder t = new StringBuilder(
                    random.nextInt(4) == 0
                            ? ""
                            : random.nextInt(256) + "." + random.nextInt(1000) + "." + random.nextInt(256) + "."
                                    + random.nextInt(10_000));
            for (int m = random.nextInt(4); m > 0; m--) {
                int at = random.nextInt(t.length() + 1);
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> {
                        if (at < t.length()) {
                            t.deleteCharAt(at);
                        }
                    }
                    case 1 -> t.insert(at, c);
                    default -> {
                        if (at < t.length()) {
                            t.setCharAt(at, c);
                        }
                    }
                }
            }
            String text = t.toString();
            assertThat(Cidr.isDottedQuad(text))
                    .as(text)
                    .isEqualTo(regex.matcher(text).matches());
        }
        assertThat(Cidr.isDottedQuad("1.2.3.4")).isTrue();
        assertThat(Cidr.isDottedQuad("255.255.255.255")).isTrue();
        for (String bad :
                List.of("", "1.2.3", "1.2.3.4.", ".1.2.3", "1..2.3", "1.2.3.4.5", "1234.1.1.1", "1.2.3.\u0663")) {
            assertThat(Cidr.isDottedQuad(bad)).as(bad).isFalse();
        }
    }

    @Test
    void refusesWhatIsNotANetwork() {
        assertThatThrownBy(() -> Cidr.parse("202.106.1.0/16"))
                .hasMessageContaining("host bits set; did you mean 202.106.0.0/16?");
        assertThatThrownBy(() -> Cidr.parse("2001:db8::1/32")).hasMessageContaining("did you mean 2001:db8::/32?");
        assertThatThrownBy(() -> Cidr.parse("0.0.0.0/0")).hasMessageContaining("default route");
        assertThatThrownBy(() -> Cidr.parse("::/0")).hasMessageContaining("default route");
        assertThatThrownBy(() -> Cidr.parse("300.1.2.0/24")).hasMessageContaining("bad address");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33")).hasMessageContaining("prefix length must be 0..32");
        assertThatThrownBy(() -> Cidr.parse("example.com/24")).hasMessageContaining("is not a CIDR");
        assertThatThrownBy(() -> Cidr.parse("10.0/8")).hasMessageContaining("is not a CIDR");
        assertThatThrownBy(() -> Cidr.parse("::ffff:10.0.0.0/104")).hasMessageContaining("write the IPv4 form");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/-1")).hasMessageContaining("bad prefix length");
        assertThatThrownBy(() -> Cidr.parse("2001:db8::*/32")).hasMessageContaining("bad address");
        assertThatThrownBy(() -> Cidr.parse("::4%1")).hasMessageContaining("has a zone"); // found by the fuzzer
        assertThatThrownBy(() -> Cidr.parse("fe80::%eth0/64")).hasMessageContaining("has a zone");
    }

    @Test
    void givesItsFirstAddressInItsFamily() {
        assertThat(Cidr.parse("202.106.0.0/16").address().getHostAddress()).isEqualTo("202.106.0.0");
        assertThat(Cidr.parse("2001:db8::/32").address().getHostAddress()).isEqualTo("2001:db8:0:0:0:0:0:0");
    }

    /** The hand-parsed IPv4 path gives what the library gives, over random prefixes of every length. */
    @Test
    void plainIpv4IsParsedAsTheLibraryParsesIt() throws Exception {
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 20_000; i++) {
            int len = 1 + r.nextInt(32);
            int a = r.nextInt() & (int) (0xFFFF_FFFFL << (32 - len));
            byte[] b = {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a};
            java.net.InetAddress ip = java.net.InetAddress.getByAddress(b);
            Cidr parsed = Cidr.parse(ip.getHostAddress() + "/" + len);
            assertThat(parsed).isEqualTo(Cidr.of(ip, len));
            assertThat(parsed).hasToString(ip.getHostAddress() + "/" + len);
        }
        assertThat(Cidr.parse("10.0.0.0/8")).isEqualTo(Cidr.of(java.net.InetAddress.getByName("10.0.0.0"), 8));
        assertThat(Cidr.parse("010.0.0.0/8")) // a leading zero: the library's reading, decimal
                .isEqualTo(Cidr.parse("10.0.0.0/8"));
        assertThatThrownBy(() -> Cidr.parse("256.0.0.0/8")).hasMessageContaining("bad address");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.1/31")).hasMessageContaining("did you mean 10.0.0.0/31?");
    }
}
