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

/** A RUNTIME frame's body as encoded, and everything a peer could send instead refused before it is used. */
class RuntimeItemTest {
    private static final Peer PEER = new Peer("b", "TEL", List.of(), "0".repeat(64));

    @Test
    void runtimeStatesTravelAsTheyWereOfferedUpToTheirBound() throws Exception {
        for (int size : new int[] {0, 40, Wire.MAX_RUNTIME_STATES}) {
            byte[] states = new byte[size];
            Arrays.fill(states, (byte) '{');
            var offer = new RuntimeStateExchange.Offer(7, "gslb-tel", states);
            byte[] body = Item.encode(Wire.Type.RUNTIME, List.of(new Item.RuntimeItem(offer)));
            assertThat(body.length + 1).as("the frame fits an ordinary frame").isLessThanOrEqualTo(Wire.MAX_FRAME);

            Item.RuntimeItem back = (Item.RuntimeItem)
                    Item.decode(Wire.Type.RUNTIME, body, PEER).getFirst();

            assertThat(back.offer().generation()).isEqualTo(7);
            assertThat(back.offer().origin()).isEqualTo("gslb-tel");
            assertThat(back.offer().states()).as(size + " bytes").containsExactly(states);
            assertThat(back.expired(System.currentTimeMillis()))
                    .as("never expires")
                    .isFalse();
        }
    }

    @Test
    void moreStatesThanTheBoundAreRefused() {
        byte[] body = body(1, 1, "a", Wire.MAX_RUNTIME_STATES + 1, new byte[Wire.MAX_RUNTIME_STATES + 1]);
        assertRefused(body, "runtime states of 262145 bytes (at most 262144");
        assertRefused(body(1, 1, "a", Integer.MAX_VALUE, new byte[0]), "runtime states of 2147483647 bytes");
        assertRefused(body(1, 1, "a", -1, new byte[0]), "runtime states of -1 bytes");
    }

    @Test
    void malformedRuntimeItemsAreRefused() {
        assertRefused(body(1, -1, "a", 0, new byte[0]), "runtime states generation -1");
        assertRefused(body(1, 1, "x".repeat(Hello.MAX_NAME + 1), 0, new byte[0]), "a name of 65 bytes");
        assertRefused(body(1, 1, "a", 10, new byte[4]), "no more than the frame holds");
        assertRefused(body(2, 1, "a", 0, new byte[0]), "2 runtime-state items in a frame (one only)");
        assertRefused(body(0, 1, "a", 0, new byte[0]), "0 runtime-state items");
        byte[] whole = body(1, 1, "a", 2, "{}".getBytes(StandardCharsets.UTF_8));
        byte[] trailing = Arrays.copyOf(whole, whole.length + 1);
        assertRefused(trailing, "trailing bytes");
        for (int cut = 0; cut < whole.length; cut++) {
            assertRefused(Arrays.copyOf(whole, cut), cut < whole.length - 2 ? "truncated" : "than the frame holds");
        }
    }

    @Test
    void aRuntimeFrameOverTheFrameBoundIsRefusedBeforeItsBodyIsRead() {
        byte[] header = Wire.body(out -> {
            out.writeInt(Wire.MAX_FRAME + 1);
            out.writeByte(Wire.Type.RUNTIME.ordinal());
        });
        assertThatThrownBy(() -> Wire.read(new DataInputStream(new ByteArrayInputStream(header))))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining("out of range for RUNTIME");
    }

    @Test
    void aPeerSpeakingTheProtocolBeforeRuntimeStatesIsRefusedNamingBothVersions() {
        assertThat(Wire.PROTOCOL_VERSION)
                .as("runtime states came with version 5, server loads with 6")
                .isEqualTo(6);
        Hello old = new Hello(4, "b", "TEL", List.of(), null);
        assertThatThrownBy(() -> Hello.decode(new Wire.Frame(Wire.Type.HELLO, old.encode())))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessage("it speaks sync protocol v4, this instance v6; upgrade one side");
    }

    private static void assertRefused(byte[] body, String why) {
        assertThatThrownBy(() -> Item.decode(Wire.Type.RUNTIME, body, PEER))
                .isInstanceOf(Wire.ProtocolException.class)
                .hasMessageContaining(why);
    }

    /** A RUNTIME body written by hand: {@code length} is what it claims, {@code states} what follows. */
    static byte[] body(int count, long generation, String origin, int length, byte[] states) {
        return Wire.body((DataOutputStream out) -> {
            out.writeShort(count);
            out.writeLong(generation);
            Wire.writeName(out, origin);
            out.writeInt(length);
            out.write(states);
        });
    }
}
