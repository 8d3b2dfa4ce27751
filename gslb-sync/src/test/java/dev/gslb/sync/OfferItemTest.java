package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A RUNTIME or KEYS frame's body as encoded, and everything a peer could send instead refused
 * before it is used: both kinds of offer are read by the same code, each with its own bound.
 */
class OfferItemTest {
    private static final Peer PEER = new Peer("b", "TEL", List.of(), "0".repeat(64));

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void anOfferTravelsAsItWasMadeUpToItsBound(OfferKind kind) throws Exception {
        for (int size : new int[] {0, 40, kind.maxBytes}) {
            byte[] content = new byte[size];
            Arrays.fill(content, (byte) '{');
            var offer = new OfferExchange.Offer(7, "gslb-tel", content);
            byte[] body = Item.encode(kind.type, List.of(new Item.OfferItem(kind, offer)));
            assertThat(body.length + 1).as("the frame fits an ordinary frame").isLessThanOrEqualTo(Wire.MAX_FRAME);

            Item.OfferItem back =
                    (Item.OfferItem) Item.decode(kind.type, body, PEER).getFirst();

            assertThat(back.kind()).isEqualTo(kind);
            assertThat(back.type()).isEqualTo(kind.type);
            assertThat(back.offer().generation()).isEqualTo(7);
            assertThat(back.offer().origin()).isEqualTo("gslb-tel");
            assertThat(back.offer().content()).as(size + " bytes").containsExactly(content);
            assertThat(back.expired(System.currentTimeMillis()))
                    .as("never expires")
                    .isFalse();
        }
    }

    @Test
    void eachKindHasItsOwnFrameAndBound() throws Exception {
        assertThat(OfferKind.of(Wire.Type.RUNTIME)).isEqualTo(OfferKind.RUNTIME_STATES);
        assertThat(OfferKind.of(Wire.Type.KEYS)).isEqualTo(OfferKind.KEYS);
        assertThat(OfferKind.of(Wire.Type.CONFIG)).isNull();
        assertThat(OfferKind.KEYS.maxBytes).isEqualTo(64 * 1024);
        // a KEYS frame with content over its own bound, though under the runtime states' bound
        int over = Wire.MAX_KEYS + 1;
        assertThat(over).isLessThan(Wire.MAX_RUNTIME_STATES);
        assertRefused(OfferKind.KEYS, body(1, 1, "a", over, new byte[over]), "keys of 65537 bytes (at most 65536");
        assertThat(Item.decode(Wire.Type.RUNTIME, body(1, 1, "a", over, new byte[over]), PEER))
                .as("the same content is within the runtime states' bound")
                .hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void moreContentThanTheBoundIsRefused(OfferKind kind) {
        int over = kind.maxBytes + 1;
        assertRefused(kind, body(1, 1, "a", over, new byte[over]), kind.what + " of " + over + " bytes (at most ");
        assertRefused(kind, body(1, 1, "a", Integer.MAX_VALUE, new byte[0]), kind.what + " of 2147483647 bytes");
        assertRefused(kind, body(1, 1, "a", -1, new byte[0]), kind.what + " of -1 bytes");
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void malformedOffersAreRefused(OfferKind kind) {
        assertRefused(kind, body(1, -1, "a", 0, new byte[0]), kind.what + " generation -1");
        assertRefused(kind, body(1, 1, "x".repeat(Hello.MAX_NAME + 1), 0, new byte[0]), "a name of 65 bytes");
        assertRefused(kind, body(1, 1, "a", 10, new byte[4]), "no more than the frame holds");
        assertRefused(kind, body(2, 1, "a", 0, new byte[0]), "2 " + kind.item + " items in a frame (one only)");
        assertRefused(kind, body(0, 1, "a", 0, new byte[0]), "0 " + kind.item + " items");
        byte[] whole = body(1, 1, "a", 2, "{}".getBytes(StandardCharsets.UTF_8));
        byte[] trailing = Arrays.copyOf(whole, whole.length + 1);
        assertRefused(kind, trailing, "trailing bytes");
        for (int cut = 0; cut < whole.length; cut++) {
            assertRefused(
                    kind, Arrays.copyOf(whole, cut), cut < whole.length - 2 ? "truncated" : "than the frame holds");
        }
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void aFrameOverTheFrameBoundIsRefusedBeforeItsBodyIsRead(OfferKind kind) {
        byte[] header = Wire.body(out -> {
            out.writeInt(Wire.MAX_FRAME + 1);
            out.writeByte(kind.type.ordinal());
        });
        assertThatThrownBy(() -> Wire.read(new DataInputStream(new ByteArrayInputStream(header))))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining("out of range for " + kind.type);
    }

    @Test
    void aPeerSpeakingTheProtocolBeforeKeysIsRefusedNamingBothVersions() {
        assertThat(Wire.PROTOCOL_VERSION)
                .as("runtime states came with version 5, server loads with 6, DNSSEC keys with 7")
                .isEqualTo(7);
        Hello old = new Hello(6, "b", "TEL", List.of(), null);
        assertThatThrownBy(() -> Hello.decode(new Wire.Frame(Wire.Type.HELLO, old.encode())))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessage("it speaks sync protocol v6, this instance v7; upgrade one side");
    }

    private static void assertRefused(OfferKind kind, byte[] body, String why) {
        assertThatThrownBy(() -> Item.decode(kind.type, body, PEER))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining(why);
    }

    /** A RUNTIME or KEYS body written by hand: {@code length} is what it claims, {@code content} what follows. */
    static byte[] body(int count, long generation, String origin, int length, byte[] content) {
        return Wire.body((DataOutputStream out) -> {
            out.writeShort(count);
            out.writeLong(generation);
            Wire.writeName(out, origin);
            out.writeInt(length);
            out.write(content);
        });
    }
}
