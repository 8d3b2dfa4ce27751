package dev.gslb.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.topology.Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** A virtual server carries its address's 128-bit form, computed once, through {@code at}. */
class VirtualServerTest {
    private static final DataCenter CNC = new DataCenter("CNC");

    @Test
    void itsAddressIsAlsoHeldInTheFormTheQueryPathAnswersWith() {
        VirtualServer v4 = new VirtualServer("v4", InetAddress.ofLiteral("198.18.2.10"), CNC).at(3);
        VirtualServer v6 = new VirtualServer("v6", InetAddress.ofLiteral("2001:db8::80"), CNC).at(4);
        assertThat(new Address(v4.hi(), v4.lo())).isEqualTo(Address.parse("198.18.2.10"));
        assertThat(new Address(v6.hi(), v6.lo())).isEqualTo(Address.parse("2001:db8::80"));
        assertThat(v4.recordType()).isEqualTo(1);
        assertThat(v6.recordType()).isEqualTo(28);
        assertThat(v6.ordinal()).isEqualTo(4);
    }

    @Test
    void halvesThatAreNotItsAddressAreRefused() {
        assertThatThrownBy(() -> new VirtualServer(
                        "x", InetAddress.ofLiteral("198.18.2.10"), 0, 1, CNC, 1, 0, null, -1, 0, java.util.List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not its address");
    }
}
