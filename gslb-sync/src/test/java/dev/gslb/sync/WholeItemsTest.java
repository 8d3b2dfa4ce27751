package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Of a batch, one item of each whole kind goes out, the newest; but a configuration's content is
 * not dropped for a heartbeat's state told after it in the same batch (the peer would know the
 * generation and never get it).
 */
class WholeItemsTest {
    static final ConfigVersion V1 = new ConfigVersion(1, "gslb-cnc", "9a4431308d0a");
    static final ConfigVersion V2 = new ConfigVersion(2, "gslb-cnc", "5b1e0c2d7f3a");

    static Item.ConfigItem content(ConfigVersion v) {
        return new Item.ConfigItem(new ConfigExchange.Offer(v, true, null, "", new byte[] {1, 2, 3}), 0);
    }

    static Item.ConfigItem state(ConfigVersion v) {
        return new Item.ConfigItem(new ConfigExchange.Offer(v, true, null, "", new byte[0]), 0);
    }

    @Test
    void aStateToldAfterTheContentInOneBatchDoesNotDropIt() {
        Item.ConfigItem content = content(V1);
        Item.ConfigItem heartbeat = state(V1);
        assertThat(PeerLink.newestWhole(List.of(content, heartbeat), Wire.Type.CONFIG))
                .containsExactly(content, heartbeat);
    }

    @Test
    void otherwiseOnlyTheNewestGoesOut() {
        Item.ConfigItem before = state(V1);
        Item.ConfigItem content = content(V2);
        assertThat(PeerLink.newestWhole(List.of(before, content), Wire.Type.CONFIG))
                .containsExactly(content);
        Item.ConfigItem newer = content(V2);
        assertThat(PeerLink.newestWhole(List.of(content(V1), state(V1), newer), Wire.Type.CONFIG))
                .as("an older content is replaced by a newer one")
                .containsExactly(newer);
        Item.ConfigItem last = state(V2);
        assertThat(PeerLink.newestWhole(List.of(state(V1), last), Wire.Type.CONFIG))
                .containsExactly(last);
        Item.OfferItem runtime = new Item.OfferItem(OfferKind.RUNTIME_STATES, new OfferExchange.Offer(2, "a", null));
        assertThat(PeerLink.newestWhole(
                        List.of(
                                new Item.OfferItem(OfferKind.RUNTIME_STATES, new OfferExchange.Offer(1, "a", null)),
                                content(V1),
                                runtime),
                        Wire.Type.RUNTIME))
                .containsExactly(runtime);
        assertThat(PeerLink.newestWhole(List.of(runtime), Wire.Type.CONFIG)).isEmpty();
    }
}
