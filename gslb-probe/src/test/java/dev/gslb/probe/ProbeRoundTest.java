package dev.gslb.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.probers.DnsProber;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeRoundTest {
    static final InetAddress LDNS = InetAddress.ofLiteral("127.0.0.50");

    /** Scripted samples: the logic of a round, without a network. */
    record Scripted(ProbeProtocol protocol, Deque<Long> rtts) implements Prober {
        static Scripted of(ProbeProtocol p, Long... rtts) {
            return new Scripted(p, new ArrayDeque<>(Arrays.asList(rtts)));
        }

        @Override
        public Sample sample(InetAddress target, Duration timeout) {
            Long r = rtts.poll();
            return r == null || r < 0 ? Sample.NO_REPLY : new Sample(r, -1);
        }
    }

    static final ProbeRound.Permits FREE = () -> {};

    @Test
    void theFirstProtocolWithAnyReplyWinsWithTheMedianAndCompletion() throws Exception {
        ProbeRound round = new ProbeRound(
                List.of(
                        Scripted.of(ProbeProtocol.DNS_DOT, -1L, -1L, -1L),
                        Scripted.of(ProbeProtocol.DNS_REV, 900L, -1L, 300L),
                        Scripted.of(ProbeProtocol.UDP, 1L, 1L, 1L)),
                3,
                Duration.ofMillis(10),
                FREE);
        ProbeResult r = round.run(LDNS);
        assertThat(r.protocol()).isEqualTo(ProbeProtocol.DNS_REV);
        assertThat(r.rttMicros()).isEqualTo(600);
        assertThat(r.completion()).isEqualTo(6666);
        assertThat(r.sent()).isEqualTo(6);
    }

    @Test
    void aRefreshStopsAtOneProbeThatConfirmsTheEstimateAndTakesAllSamplesOtherwise() throws Exception {
        var expected = new ProbeRound.Expectation(ProbeProtocol.DNS_DOT, 50_000, 5_000);
        ProbeResult confirmed = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.DNS_DOT, 53_000L, 1L, 1L)), 3, Duration.ofMillis(10), FREE)
                .run(LDNS, expected);
        assertThat(confirmed.sent()).isEqualTo(1);
        assertThat(confirmed.rttMicros()).isEqualTo(53_000);
        assertThat(confirmed.completion()).isEqualTo(10_000);

        ProbeResult surprised = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.DNS_DOT, 90_000L, 80_000L, 100_000L)),
                        3,
                        Duration.ofMillis(10),
                        FREE)
                .run(LDNS, expected);
        assertThat(surprised.sent()).isEqualTo(3);
        assertThat(surprised.rttMicros()).isEqualTo(90_000);
        assertThat(surprised.spreadMicros()).as("mean distance from the median").isEqualTo(6_666);

        ProbeResult lost = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.DNS_DOT, -1L, 51_000L, 49_000L)),
                        3,
                        Duration.ofMillis(10),
                        FREE)
                .run(LDNS, expected);
        assertThat(lost.sent()).as("a lost first probe gets one more try").isEqualTo(2);
        assertThat(lost.completion()).isEqualTo(5000);

        ProbeResult twiceLost = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.DNS_DOT, -1L, -1L, 49_000L)), 3, Duration.ofMillis(10), FREE)
                .run(LDNS, expected);
        assertThat(twiceLost.sent()).isEqualTo(3);

        ProbeResult otherProtocol = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.UDP, 50_000L, 50_000L, 50_000L)),
                        3,
                        Duration.ofMillis(10),
                        FREE)
                .run(LDNS, expected);
        assertThat(otherProtocol.sent())
                .as("an estimate of another protocol says nothing")
                .isEqualTo(3);
    }

    @Test
    void noReplyAtAllIsUnprobeable() throws Exception {
        ProbeResult r = new ProbeRound(
                        List.of(Scripted.of(ProbeProtocol.TCP, -1L, -1L)), 2, Duration.ofMillis(10), FREE)
                .run(LDNS);
        assertThat(r.probeable()).isFalse();
        assertThat(r.sent()).isEqualTo(2);
    }

    @Test
    void hopsComeFromTheReplyTtl() {
        assertThat(ProbeRound.hopsFrom(64)).isEqualTo(1);
        assertThat(ProbeRound.hopsFrom(52)).isEqualTo(13);
        assertThat(ProbeRound.hopsFrom(118)).isEqualTo(11);
        assertThat(ProbeRound.hopsFrom(-1)).isZero();
    }

    @Test
    void rttOrderingIsMeasuredNotAssumed() throws Exception {
        InetAddress cnc = InetAddress.ofLiteral("127.0.0.2");
        InetAddress tel = InetAddress.ofLiteral("127.0.0.3");
        try (DelayingResponder ldns =
                new DelayingResponder(LDNS).delay(cnc, Duration.ofMillis(60)).delay(tel, Duration.ofMillis(15))) {
            ProbeResult fromCnc =
                    new ProbeRound(List.of(DnsProber.dot(cnc, ldns.port())), 3, Duration.ofSeconds(1), FREE).run(LDNS);
            ProbeResult fromTel =
                    new ProbeRound(List.of(DnsProber.dot(tel, ldns.port())), 3, Duration.ofSeconds(1), FREE).run(LDNS);
            assertThat(fromCnc.rttMicros()).isGreaterThanOrEqualTo(60_000);
            assertThat(fromTel.rttMicros()).isGreaterThanOrEqualTo(15_000L).isLessThan(fromCnc.rttMicros());
            assertThat(fromCnc.completion()).isEqualTo(10000);
        }
    }
}
