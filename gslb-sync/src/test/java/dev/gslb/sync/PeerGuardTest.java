package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A peer's items are admitted a frame at a time, at its rate with a burst of twice that. */
class PeerGuardTest {
    static PeerGuard guard(int perSecond) {
        SyncSettings d = SyncSettings.of(
                List.of(), Path.of("peers.json"), Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofMinutes(5));
        SyncSettings s = SyncSettings.SETTINGS
                .change(d)
                .set(SyncSettings.PEER_ITEMS_PER_SECOND, perSecond)
                .build();
        return new PeerGuard(s, 100);
    }

    @Test
    void aFrameOverTheBurstIsCutAtItAndTheNextGetsNothing() {
        PeerGuard g = guard(1); // one a second: the next item a whole second away
        assertThat(g.admit(5)).as("the burst, twice the rate, of the five").isEqualTo(2);
        assertThat(g.admit(5)).as("nothing more within the second").isZero();
        assertThat(g.admit(0)).isZero();
    }

    @Test
    void aFrameWithinTheBurstIsAdmittedWhole() {
        PeerGuard g = guard(1_000);
        assertThat(g.admit(1_500)).isEqualTo(1_500);
        assertThat(g.admit(1_000))
                .as("what is left of the burst of 2,000, and the few items' worth since")
                .isBetween(500, 1_000);
    }
}
