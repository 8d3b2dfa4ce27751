package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
