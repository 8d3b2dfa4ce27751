package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PrefixSetTest {
    private static PrefixSet set(String... cidrs) {
        return PrefixSet.of(Stream.of(cidrs).map(Cidr::parse).toList());
    }

    private static List<String> text(PrefixSet s) {
        return s.prefixes().stream().map(Cidr::toString).toList();
    }

    @Test
    void unionMergesNeighboursOfBothFamilies() {
        PrefixSet s = set("10.0.0.0/9", "2001:db8::/33", "10.128.0.0/9", "2001:db8:8000::/33", "10.1.0.0/16");
        assertThat(text(s)).containsExactly("10.0.0.0/8", "2001:db8::/32");
        assertThat(set("10.0.0.0/8").union(set("11.0.0.0/8"))).isEqualTo(set("10.0.0.0/7"));
    }

    @Test
    void subtractCutsAPrefixIntoTheFewestBlocks() {
        assertThat(text(set("10.0.0.0/8").subtract(set("10.0.0.0/10"))))
                .containsExactly("10.64.0.0/10", "10.128.0.0/9");
        assertThat(text(set("2001:db8::/32").subtract(set("2001:db8::/34", "2001:db8:c000::/34"))))
                .containsExactly("2001:db8:4000::/34", "2001:db8:8000::/34");
        assertThat(set("10.0.0.0/8").subtract(set("10.0.0.0/7")).isEmpty()).isTrue();
    }

    @Test
    void negateCoversEveryOtherAddressOfBothFamilies() {
        PrefixSet not = set("128.0.0.0/1", "8000::/1").negate();
        assertThat(text(not.intersect(PrefixSet.IPV4))).containsExactly("0.0.0.0/1");
        assertThat(not.subtract(PrefixSet.IPV4).prefixes()).allMatch(c -> !c.ipv4());
        assertThat(not.negate()).isEqualTo(set("128.0.0.0/1", "8000::/1"));
        assertThat(PrefixSet.ALL.negate()).isEqualTo(PrefixSet.EMPTY);
        assertThat(PrefixSet.EMPTY.negate()).isEqualTo(PrefixSet.ALL);
        assertThat(PrefixSet.IPV4.union(PrefixSet.IPV6)).isEqualTo(PrefixSet.ALL);
        assertThat(text(PrefixSet.IPV4)).containsExactly("0.0.0.0/0");
    }

    @Test
    void theFamiliesAreKeptApart() {
        assertThat(text(PrefixSet.IPV6.subtract(set("2001:db8::/32"))))
                .as("an IPv6 prefix as written: the IPv4-mapped block is not cut out of ::/3")
                .startsWith("::/3", "2000::/16");
        assertThat(text(PrefixSet.IPV4.subtract(set("2001:db8::/32")))).containsExactly("0.0.0.0/0");
        assertThat(PrefixSet.IPV6.union(PrefixSet.IPV4).negate()).isEqualTo(PrefixSet.EMPTY);
    }

    @Test
    void containsAnswersAsTheTableLooksUp() {
        Cidr v4 = Cidr.parse("192.0.2.1");
        Cidr v6 = Cidr.parse("2001:db8::1");
        assertThat(set("192.0.2.0/24").contains(v4.hi(), v4.lo())).isTrue();
        assertThat(set("10.0.0.0/8", "2001:db8::/32").contains(v4.hi(), v4.lo()))
                .isFalse();
        assertThat(set("2001:db8::/32").contains(v6.hi(), v6.lo())).isTrue();
        assertThat(set("::/3").contains(v4.hi(), v4.lo()))
                .as("::/3 spans the IPv4 block of the shared space")
                .isTrue();
    }
}
