package dev.gslb.probe.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bandwidths as written, rates from counters (wrap, reset, restart, unknown), the limit's hysteresis. */
class LinkArithmeticTest {
    static final Bandwidth GBIT = Bandwidth.parse("1Gbit");

    @Test
    void bandwidthsReadAsOperatorsWriteThem() {
        assertThat(Bandwidth.parse("100Mbit").bitsPerSecond()).isEqualTo(100_000_000);
        assertThat(Bandwidth.parse("2.5Gbit/s").bitsPerSecond()).isEqualTo(2_500_000_000L);
        assertThat(Bandwidth.parse("500 kbit").bitsPerSecond()).isEqualTo(500_000);
        assertThat(Bandwidth.parse("1200").bitsPerSecond()).isEqualTo(1200);
        assertThat(Bandwidth.parse("80%", GBIT).bitsPerSecond()).isEqualTo(800_000_000);
        assertThat(Bandwidth.format(812_345_678)).isEqualTo("812 Mbit/s");
        assertThat(Bandwidth.format(1_500_000_000)).isEqualTo("1.50 Gbit/s");
        assertThatThrownBy(() -> Bandwidth.parse("80%")).hasMessageContaining("no 'capacity:'");
        assertThatThrownBy(() -> Bandwidth.parse("fast")).hasMessageContaining("write e.g. 100Mbit");
        assertThatThrownBy(() -> Bandwidth.parse("120%", GBIT)).hasMessageContaining("more than the link's capacity");
    }

    @Test
    void aRateIsTheAverageOfTheWindowsIntervals() {
        TrafficMeter m = new TrafficMeter(2);
        m.read(new TrafficSource.Counters(0, 0, 0), 0);
        assertThat(m.inBps()).as("one reading is no rate yet").isEqualTo(-1);
        m.read(new TrafficSource.Counters(1_000_000, 500_000, 0), 1000); // 8 Mbit/s in, 4 out
        assertThat(m.inBps()).isEqualTo(8_000_000);
        assertThat(m.outBps()).isEqualTo(4_000_000);
        m.read(new TrafficSource.Counters(4_000_000, 500_000, 0), 2000); // 24 Mbit/s in, 0 out
        assertThat(m.inBps()).isEqualTo(16_000_000);
        assertThat(m.outBps()).isEqualTo(2_000_000);
        m.read(new TrafficSource.Counters(4_000_000, 500_000, 0), 3000); // the first interval leaves the window
        assertThat(m.inBps()).isEqualTo(12_000_000);
    }

    @Test
    void aWrappedCounterCountsOnAResetOrRestartDoesNotBurst() {
        TrafficMeter m = new TrafficMeter(1);
        m.read(new TrafficSource.Counters(-1_000L, 0, 0), 0); // 2^64 - 1000, unsigned
        m.read(new TrafficSource.Counters(24_000, 0, 0), 1000); // wrapped: 25,000 octets
        assertThat(m.inBps()).isEqualTo(200_000);
        m.read(new TrafficSource.Counters(1_000, 0, 0), 2000); // reset from low: skipped, not 2^64 octets
        assertThat(m.inBps())
                .as("the reset interval is skipped; the last rate stays")
                .isEqualTo(200_000);
        m.read(new TrafficSource.Counters(2_000, 0, 0), 3000);
        assertThat(m.inBps()).isEqualTo(8_000);
        m.read(new TrafficSource.Counters(900_000_000, 0, 1), 4000); // new epoch: a restart, not a burst
        assertThat(m.inBps()).isEqualTo(8_000);
        m.failed();
        assertThat(m.inBps()).as("a silent source is unknown, not zero").isEqualTo(-1);
        m.read(new TrafficSource.Counters(900_001_000, 0, 1), 5000);
        assertThat(m.inBps())
                .as("after a failure, two readings are needed again")
                .isEqualTo(-1);
    }

    @Test
    void aLinkSpillsPastItsLimitAndTakesAnswersAgainUnderResume() {
        Bandwidth limit = Bandwidth.parse("80%", GBIT);
        LinkSpec l = new LinkSpec(
                "CNC-1", "CNC", GBIT, limit, null, Bandwidth.parse("700Mbit"), null, null, List.of(), List.of());
        assertThat(l.overLimit(790_000_000, 5_000_000_000L, false))
                .as("no outbound limit")
                .isFalse();
        assertThat(l.overLimit(812_000_000, 0, false)).isTrue();
        assertThat(l.overLimitReason(812_000_000, 0)).isEqualTo("link CNC-1 over limit: in 812 Mbit/s > 800 Mbit/s");
        assertThat(l.overLimit(750_000_000, 0, true))
                .as("between resume and limit: still over")
                .isTrue();
        assertThat(l.overLimitReason(750_000_000, 0)).contains("in 750 Mbit/s > resume 700 Mbit/s");
        assertThat(l.overLimit(690_000_000, 0, true)).isFalse();
        assertThat(l.overLimit(750_000_000, 0, false))
                .as("rising again, under the limit")
                .isFalse();
        assertThat(l.overLimit(-1, -1, true)).as("unknown traffic never spills").isFalse();
        assertThat(LinkSpec.defaultResume(limit).bitsPerSecond()).isEqualTo(720_000_000);
        assertThatThrownBy(() -> new LinkSpec(
                        "X", "CNC", GBIT, limit, null, Bandwidth.parse("900Mbit"), null, null, List.of(), List.of()))
                .hasMessageContaining("'resume:' (900 Mbit/s) is above 'limit-in:'");
    }

    @Test
    void switchOverIsTheSlowestDetectionPlusTheTtl() {
        var icmp = new dev.gslb.probe.health.MonitorSpec(
                "gw", new dev.gslb.probe.health.IcmpCheck(), Duration.ofSeconds(10), Duration.ofSeconds(5), 2, 3);
        TrafficSpec t = new TrafficSpec(new InterfaceCounters("lo"), Duration.ofSeconds(10), Duration.ofSeconds(30));
        LinkSpec l = new LinkSpec(
                "CNC-1",
                "CNC",
                GBIT,
                GBIT,
                null,
                GBIT,
                null,
                t,
                List.of(java.net.InetAddress.ofLiteral("198.18.2.1")),
                List.of(icmp));
        assertThat(l.switchOver(Duration.ofSeconds(30)))
                .isEqualTo(Duration.ofSeconds(70)); // max(10 s x 3, 30 s window + 10 s) + 30 s TTL
    }
}
