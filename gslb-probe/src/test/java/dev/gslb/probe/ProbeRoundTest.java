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
