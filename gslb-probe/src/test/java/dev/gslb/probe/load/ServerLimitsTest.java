package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.site.ServerLoad;
import org.junit.jupiter.api.Test;

/** A server's limits: hysteresis as a link's, unknown never over, the reason naming each limit. */
class ServerLimitsTest {
    static ServerLoad load(long connections, double cpu, long bytesPerSecond, long packetsPerSecond) {
        return new ServerLoad(connections, cpu, -1, -1, bytesPerSecond, packetsPerSecond, -1, null, 1, "dc");
    }

    final ServerLimits limits = new ServerLimits(5000L, 800L, 100_000L, 90, 80);

    @Test
    void overPastALimitBackOnlyWhenEveryMetricIsUnderResume() {
        assertThat(limits.overLimit(load(4999, 50, 1000, 10), false)).isFalse();
        assertThat(limits.overLimit(load(5001, 50, 1000, 10), false)).isTrue();
        assertThat(limits.overLimit(load(4500, 50, 1000, 10), true))
                .as("under the limit, above resume (4000): still over")
                .isTrue();
        assertThat(limits.overLimit(load(4500, 50, 1000, 10), false))
                .as("the same load, not over before: not over")
                .isFalse();
        assertThat(limits.overLimit(load(3000, 85, 1000, 10), true))
                .as("connections back, cpu above its resume (72)")
                .isTrue();
        assertThat(limits.overLimit(load(3000, 70, 1000, 10), true)).isFalse();
    }

    @Test
    void kbpsIsKilobitsOfBothDirections() {
        assertThat(limits.overLimit(load(1, 1, 100_000, 1), false))
                .as("800 kbit/s")
                .isFalse();
        assertThat(limits.overLimit(load(1, 1, 100_001, 1), false)).isTrue();
        assertThat(limits.overLimitReason("vs", load(1, 1, 125_000, 1))).isEqualTo("vs over limit: kbps 1000 > 800");
    }

    @Test
    void anUnknownMetricIsNeverOver() {
        assertThat(limits.overLimit(load(-1, -1, -1, -1), false)).isFalse();
        assertThat(limits.overLimit(load(-1, -1, -1, -1), true))
                .as("nothing measured: back")
                .isFalse();
        assertThat(ServerLimits.NONE.overLimit(load(1_000_000, 100, 1L << 40, 1L << 30), false))
                .isFalse();
    }

    @Test
    void theReasonNamesEachLimitPassed() {
        assertThat(limits.overLimitReason("vs-cnc", load(5200, 95, 1000, 10)))
                .isEqualTo("vs-cnc over limit: connections 5200 > 5000, cpu 95 > 90");
        assertThat(limits.overLimitReason("vs-cnc", load(4500, 10, 1000, 120_000)))
                .isEqualTo("vs-cnc over limit: connections 4500 > resume 4000, packets 120000 > 100000");
    }

    @Test
    void badValuesAreRefused() {
        assertThatThrownBy(() -> new ServerLimits(1L, null, null, null, 0)).hasMessageContaining("1% to 100%");
        assertThat(ServerLimits.SETTINGS.defaults()).isEqualTo(ServerLimits.NONE);
    }
}
