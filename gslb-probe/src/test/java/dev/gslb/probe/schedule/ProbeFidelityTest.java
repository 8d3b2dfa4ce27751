package dev.gslb.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.DelayingResponder;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a round keeps from the rounds before (the source's "probe_protocol", "cur_last_hops",
 * smoothed RTT), and the refresh of paths in use, which follows a delay change without a query.
 */
class ProbeFidelityTest {
    static final InetAddress ANY = InetAddress.ofLiteral("0.0.0.0");
    static final InetAddress LDNS = InetAddress.ofLiteral("127.0.0.1");

    /**
     * A prober whose answers the test scripts: the rounds' logic is under test, not a socket. It
     * answers the samples queued in {@code next} one by one, then the last of them (or {@code answer}) again.
     */
    static final class Scripted implements Prober {
        final ProbeProtocol protocol;
        final AtomicInteger sent = new AtomicInteger();
        final Queue<Sample> next = new ConcurrentLinkedQueue<>();
        volatile Sample answer;

        Scripted(ProbeProtocol protocol, Sample answer) {
            this.protocol = protocol;
            this.answer = answer;
        }

        @Override
        public ProbeProtocol protocol() {
            return protocol;
        }

        @Override
        public Sample sample(InetAddress target, Duration timeout) {
            sent.incrementAndGet();
            Sample queued = next.poll();
            if (queued != null) {
                answer = queued;
            }
            return answer;
        }
    }

    static ProbeSettings settings(List<ProbeProtocol> protocols, int port, Duration refresh, Duration minInterval) {
        return new ProbeSettings(
                        ANY,
                        protocols,
                        3,
                        Duration.ofMillis(500),
                        1000,
                        4,
                        minInterval,
                        port,
                        port,
                        List.of(),
                        1000,
                        1000)
                .withRefresh(refresh);
    }

    static ProximityTable table() {
        return new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
    }

    @Test
    void aRoundStartsWithTheProtocolThatLastAnsweredKeepsHopsAndCarriesTheEstimateOn() throws Exception {
        Scripted dot = new Scripted(ProbeProtocol.DNS_DOT, Sample.NO_REPLY); // a TCP-only LDNS
        Scripted tcp = new Scripted(ProbeProtocol.TCP, new Sample(10_000, 60));
        ProximityTable table = table();
        try (ProbeScheduler s = new ProbeScheduler(
                table,
                settings(List.of(ProbeProtocol.DNS_DOT, ProbeProtocol.TCP), 53, Duration.ZERO, Duration.ZERO),
                "CNC",
                "a",
                List.of(dot, tcp),
                new SimpleMeterRegistry())) {
            s.probeNow(LDNS, null);
            assertThat(dot.sent).as("the first round tries dns_dot first").hasValue(3);
            Path first = table.get(Address.of(LDNS)).path("CNC");
            assertThat(first.protocol()).isEqualTo(ProbeProtocol.TCP);
            assertThat(first.hops()).isEqualTo((byte) 5);

            tcp.answer = new Sample(20_000, -1); // slower now, and no TTL seen this time
            s.probeNow(LDNS, null);
            assertThat(dot.sent)
                    .as("the next round starts with tcp: no timed-out dns_dot probes")
                    .hasValue(3);
            Path second = table.get(Address.of(LDNS)).path("CNC");
            assertThat(second.hops())
                    .as("cur_last_hops: the previous round's hops")
                    .isEqualTo((byte) 5);
            assertThat(second.rttMicros())
                    .as("10 ms off a steady 10 ms path, twice: a changed route, the estimate starts again")
                    .isEqualTo(20_000);
            assertThat(tcp.sent)
                    .as("a surprising first probe gets the other samples, a round beyond the band a second round")
                    .hasValue(9);

            tcp.answer = new Sample(21_000, -1); // within the tolerance (5 % of 20 ms, 2 ms at least)
            s.probeNow(LDNS, null);
            assertThat(tcp.sent).as("one probe confirms the estimate").hasValue(10);
            assertThat(table.get(Address.of(LDNS)).path("CNC").rttMicros())
                    .as("within the band, the round is averaged in: 20000 + 0.25 x 1000")
                    .isEqualTo(20_250);
        }
    }

    @Test
    void aRoundBeyondTheBandThatTheNextRoundDoesNotConfirmIsAveragedInNotTakenAlone() throws Exception {
        Scripted udp = new Scripted(ProbeProtocol.UDP, new Sample(40_000, -1));
        ProximityTable table = table();
        try (ProbeScheduler s = new ProbeScheduler(
                table,
                settings(List.of(ProbeProtocol.UDP), 53, Duration.ZERO, Duration.ZERO),
                "CNC",
                "a",
                List.of(udp),
                new SimpleMeterRegistry())) {
            s.probeNow(LDNS, null);
            assertThat(table.get(Address.of(LDNS)).path("CNC").rttMicros()).isEqualTo(40_000);

            for (int i = 0; i < 3; i++) {
                udp.next.add(new Sample(60_000, -1)); // one round 20 ms off (the band is 4 ms here) ...
            }
            for (int i = 0; i < 3; i++) {
                udp.next.add(new Sample(40_000, -1)); // ... and the next where the path was
            }
            var r = s.probeNow(LDNS, null);
            assertThat(r.sent()).as("the refresh's full round and the second").isEqualTo(6);
            assertThat(table.get(Address.of(LDNS)).path("CNC").rttMicros())
                    .as("not 60 ms: the two rounds averaged in as six replies, 40000 + 0.822 x 10000")
                    .isEqualTo(Math.round(40_000 + (1 - Math.pow(0.75, 6)) * 10_000));
        }
    }

    @Test
    void pathsInUseAreRefreshedWithoutAQueryAndFollowADelayChange() throws Exception {
        InetAddress source = InetAddress.ofLiteral("127.0.0.3");
        try (DelayingResponder ldns = new DelayingResponder(LDNS).delay(source, Duration.ofMillis(80))) {
            ProximityTable table = table();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try (ProbeScheduler s = new ProbeScheduler(
                    table,
                    settings(
                            List.of(ProbeProtocol.DNS_DOT), ldns.port(), Duration.ofSeconds(1), Duration.ofMillis(200)),
                    "CNC",
                    "a",
                    List.of(DnsProber.dot(source, ldns.port())),
                    registry)) {
                s.ldnsQueried(LDNS, System.currentTimeMillis()); // the LDNS asks once: it is in use, and measured
                Awaits.until(
                        "an RTT of 80 ms or more (us)", Duration.ofSeconds(30), () -> rtt(table), rtt -> rtt >= 80_000);
                assertThat(rtt(table)).isGreaterThanOrEqualTo(80_000);

                ldns.delay(source, Duration.ofMillis(5)); // the route changes; no query comes
                long changed = System.nanoTime();
                Awaits.until("an RTT under 40 ms (us)", Duration.ofSeconds(30), () -> rtt(table), rtt -> rtt < 40_000);
                double took = (System.nanoTime() - changed) / 1e9;
                System.out.printf("refresh (1 s) followed the delay change, without a query, in %.2f s%n", took);
                assertThat(rtt(table)).as("re-measured by the refresh alone").isLessThan(40_000);
                assertThat(s.refreshAges()[0])
                        .as("the achieved age is reported")
                        .isFinite();
                assertThat(registry.get("probe_refresh_age_seconds")
                                .tag("quantile", "0.99")
                                .gauge()
                                .value())
                        .isFinite();
            }
        }
    }

    static int rtt(ProximityTable table) {
        LdnsEntry e = table.get(Address.of(LDNS));
        Path p = e == null ? null : e.path("CNC");
        return p == null ? -1 : p.rttMicros();
    }
}
