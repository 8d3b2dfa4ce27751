package dev.gslb.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AddressTest {
    @Test
    void oneFormForBothFamiliesPrintedAsOperatorsWriteThem() {
        Address v4 = Address.parse(" 202.106.0.20 ");
        assertThat(v4.ipv4()).isTrue();
        assertThat(v4).hasToString("202.106.0.20");
        assertThat(v4).isEqualTo(Address.of(InetAddress.ofLiteral("202.106.0.20")));
        assertThat(v4.lo()).isEqualTo(0xFFFF_CA6A_0014L).as("IPv4 mapped into ::ffff:0:0/96");
        Address v6 = Address.parse("2001:0db8:0:0:0:0:0:1");
        assertThat(v6.ipv4()).isFalse();
        assertThat(v6).hasToString("2001:db8::1");
        assertThat(v6.inetAddress()).isEqualTo(InetAddress.ofLiteral("2001:db8::1"));
        assertThat(Cidr.parse("202.106.0.0/16").address()).isEqualTo(InetAddress.ofLiteral("202.106.0.0"));
        assertThat(CidrSet.parse(java.util.List.of("202.106.0.0/16"), "test").contains(v4))
                .isTrue();
    }

    @Test
    void onlyLiteralsOfOneAddress() {
        for (String bad : new String[] {"example.com", "1.2.3", "10.0.0.0/8", "2001:db8::*", "", "300.1.1.1"}) {
            assertThatThrownBy(() -> Address.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not an IPv4 or IPv6 address");
        }
    }
}
