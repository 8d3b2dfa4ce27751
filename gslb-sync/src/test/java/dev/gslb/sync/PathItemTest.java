package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.topology.Address;
import java.io.EOFException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A PATHS frame's body as encoded, stamped with the sending peer's data center and name, or refused. */
class PathItemTest {
    private static final Peer PEER = new Peer("b", "TEL", List.of(), "0".repeat(64));

    private static Item.PathItem item(String ldns, int rtt, ProbeProtocol protocol) {
        return new Item.PathItem(
                Address.parse(ldns), Path.of("ANY", rtt, 9_500, 7, protocol, 1_765_000_000_000L, "x"), 600_000);
    }

    @Test
    void pathsOfEitherFamilyTravelAsTheyWereMeasured() throws Exception {
        List<Item.PathItem> sent = List.of(
                item("198.18.0.1", 12_000, ProbeProtocol.DNS_DOT), item("2001:db8::53", 60_000_000, ProbeProtocol.TCP));
        List<Item> got = Item.decode(Wire.Type.PATHS, Item.encode(Wire.Type.PATHS, sent), PEER);

        assertThat(got).hasSize(2);
        for (int i = 0; i < 2; i++) {
            Item.PathItem p = (Item.PathItem) got.get(i);
            Path s = sent.get(i).path();
            assertThat(p.ldns()).isEqualTo(sent.get(i).ldns());
            assertThat(p.path())
                    .as("the peer's data center and name, not what it claims")
                    .isEqualTo(
                            Path.of("TEL", s.rttMicros(), s.completion(), s.hops(), s.protocol(), s.measuredAt(), "b"));
            assertThat(p.ttlMillis()).isEqualTo(600_000);
        }
    }

    @Test
    void aTruncatedOrOutOfRangePathIsRefused() throws Exception {
        byte[] body = Item.encode(Wire.Type.PATHS, List.of(item("198.18.0.1", 12_000, ProbeProtocol.UDP)));
        for (int cut = 0; cut < body.length; cut++) {
            byte[] part = Arrays.copyOf(body, cut);
            assertThatThrownBy(() -> Item.decode(Wire.Type.PATHS, part, PEER))
                    .as("cut at %d of %d bytes", cut, body.length)
                    .isInstanceOf(EOFException.class);
        }
        byte[] slow = Item.encode(Wire.Type.PATHS, List.of(item("198.18.0.1", 60_000_001, ProbeProtocol.UDP)));
        assertThatThrownBy(() -> Item.decode(Wire.Type.PATHS, slow, PEER))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining("rtt 60000001");
        byte[] badFamily = body.clone();
        badFamily[2] = 6; // the address length: 4 or 16
        assertThatThrownBy(() -> Item.decode(Wire.Type.PATHS, badFamily, PEER))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining("address length");
    }
}
