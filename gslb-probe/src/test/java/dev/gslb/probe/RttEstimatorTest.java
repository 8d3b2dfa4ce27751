package dev.gslb.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.proximity.Path;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The path estimate over many rounds of a simulated path (seeded: the same draws every run): steady
 * under jitter and loss, quick after a route change. The real rounds ({@link ProbeRound} with
 * check-first) run against a prober that draws each reply's delay.
 */
class RttEstimatorTest {
    static final InetAddress LDNS = InetAddress.ofLiteral("127.0.0.50");

    /** A path of {@code meanMicros} RTT: each way uniform within +/- {@code jitter}, lost with {@code loss} each way. */
    static final class SimulatedPath implements Prober {
        final SplittableRandom random;
        volatile long meanMicros;
        final long jitterMicros;
        final double loss;

        SimulatedPath(long seed, long meanMicros, long jitterMicros, double loss) {
            this.random = new SplittableRandom(seed);
            this.meanMicros = meanMicros;
            this.jitterMicros = jitterMicros;
            this.loss = loss;
        }

        @Override
        public ProbeProtocol protocol() {
            return ProbeProtocol.DNS_DOT;
        }

        @Override
        public Sample sample(InetAddress target, Duration timeout) {
            if (random.nextDouble() < loss || random.nextDouble() < loss) {
                return Sample.NO_REPLY;
            }
            long way = jitterMicros == 0 ? 0 : random.nextLong(-jitterMicros, jitterMicros + 1);
            long back = jitterMicros == 0 ? 0 : random.nextLong(-jitterMicros, jitterMicros + 1);
            return new Sample(meanMicros + way + back, -1);
        }
    }

    /**
     * Rounds of one path as the scheduler runs them: check-first once a path is known, a second
     * round at once after one that looks like a change ({@code confirm} false: the estimate
     * restarts from that round alone, as before the second round was taken).
     */
    static final class Estimated {
        final SimulatedPath path;
        final RttEstimator estimator = new RttEstimator(0.25);
        final boolean confirm;
        Path known;
        int sent;

        Estimated(SimulatedPath path) {
            this(path, true);
        }

        Estimated(SimulatedPath path, boolean confirm) {
            this.path = path;
            this.confirm = confirm;
        }

        ProbeResult run(ProbeRound.Expectation expected) throws InterruptedException {
            ProbeResult r = new ProbeRound(List.of(path), 3, Duration.ofMillis(500), () -> {}).run(LDNS, expected);
            sent += r.sent();
            return r;
        }

        long round() throws InterruptedException {
            var expected = known == null
                    ? null
                    : new ProbeRound.Expectation(
                            known.protocol(),
                            known.rttMicros(),
                            RttEstimator.tolerance(known.rttMicros(), known.jitterMicros()));
            ProbeResult r = run(expected);
            if (r.probeable()) {
                ProbeResult again = confirm && RttEstimator.looksChanged(known, r) ? run(null) : null;
                RttEstimator.Estimate e =
                        again != null && again.probeable() ? estimator.next(known, r, again) : estimator.next(known, r);
                known = Path.of("A", e.rttMicros(), e.completion(), 0, r.protocol(), 0, "a", e.jitterMicros());
            }
            return known.rttMicros();
        }
    }

    @Test
    void twoPathsTwentyMillisecondsApartAreRankedRightUnderJitterAndLoss() throws Exception {
        Estimated near = new Estimated(new SimulatedPath(1, 100_000, 20_000, 0.05));
        Estimated far = new Estimated(new SimulatedPath(2, 120_000, 20_000, 0.05));
        int right = 0;
        int rounds = 2_000;
        for (int i = 0; i < 10; i++) { // settle
            near.round();
            far.round();
        }
        for (int i = 0; i < rounds; i++) {
            if (near.round() < far.round()) {
                right++;
            }
        }
        assertThat(right * 100.0 / rounds)
                .as("rounds after which the nearer path has the lower estimate")
                .isGreaterThanOrEqualTo(97.0);
        double packetsPerRound = (near.sent + far.sent) / 2.0 / (rounds + 10);
        assertThat(packetsPerRound)
                .as("check-first: most rounds need one probe even under jitter and loss")
                .isLessThan(1.3);
    }

    @Test
    void aRouteChangeIsFollowedInOneRoundAndAStablePathCostsOneProbe() throws Exception {
        Estimated path = new Estimated(new SimulatedPath(3, 40_000, 0, 0));
        for (int i = 0; i < 5; i++) {
            path.round();
        }
        int before = path.sent;
        path.round();
        assertThat(path.sent - before)
                .as("a steady path is confirmed by one probe")
                .isEqualTo(1);
        path.path.meanMicros = 100_000;
        assertThat(path.round())
                .as("a changed route is taken at once, not averaged in")
                .isEqualTo(100_000);
        path.path.meanMicros = 60_000;
        assertThat(path.round()).isEqualTo(60_000);
    }

    @Test
    void aRouteChangeUnderJitterMovesTheEstimateWithinTwoRounds() throws Exception {
        int late = 0;
        for (int seed = 0; seed < 200; seed++) {
            Estimated path = new Estimated(new SimulatedPath(seed, 40_000, 20_000, 0.05));
            for (int i = 0; i < 20; i++) {
                path.round();
            }
            path.path.meanMicros = 160_000; // a 60 ms longer way each direction
            path.round();
            if (path.round() < 130_000) {
                late++;
            }
        }
        assertThat(late)
                .as("paths still estimated nearer the old route after two rounds, of 200")
                .isLessThan(4);
    }

    @Test
    void anUnluckyRoundOfAJitteryPathNoLongerRestartsItsEstimate() throws Exception {
        int[] astray = new int[2];
        for (int confirm = 0; confirm < 2; confirm++) {
            for (int seed = 0; seed < 20; seed++) {
                Estimated path = new Estimated(new SimulatedPath(seed, 100_000, 20_000, 0.05), confirm == 1);
                for (int i = 0; i < 10; i++) {
                    path.round();
                }
                for (int i = 0; i < 200; i++) {
                    if (Math.abs(path.round() - 100_000) > 15_000) {
                        astray[confirm]++;
                    }
                }
            }
        }
        System.out.printf(
                "rounds after which the estimate is > 15 ms astray, of 4,000: %d restarting from one round, %d confirmed%n",
                astray[0], astray[1]);
        assertThat(astray[1])
                .as("rounds after which the estimate is more than 15 ms off the mean, of 4,000, with a second round")
                .isLessThan(astray[0] / 2);
    }

    @Test
    void aRoundThatLooksLikeAChangeRestartsTheEstimateOnlyWhenTheNextConfirmsIt() {
        RttEstimator e = new RttEstimator(0.25);
        Path known = Path.of("A", 50_000, 10_000, 0, ProbeProtocol.UDP, 0, "a", 4_000);
        ProbeResult far = new ProbeResult(ProbeProtocol.UDP, 70_000, 10_000, 0, 3, 3, 1_000);
        assertThat(RttEstimator.looksChanged(known, far))
                .as("20 ms off, band 12 ms")
                .isTrue();
        ProbeResult confirms = new ProbeResult(ProbeProtocol.UDP, 64_000, 6_666, 0, 3, 2, 2_000);
        assertThat(e.next(known, far, confirms))
                .as("both beyond the band on the same side: the two rounds, as one, are the new estimate")
                .isEqualTo(new RttEstimator.Estimate(67_600, 2_000, 8_333));
        ProbeResult back = new ProbeResult(ProbeProtocol.UDP, 51_000, 10_000, 0, 3, 3, 1_000);
        assertThat(e.next(known, far, back).rttMicros())
                .as("the second round where the estimate was: both averaged in, six replies as six steps")
                .isEqualTo(Math.round(50_000 + (1 - Math.pow(0.75, 6)) * 10_500));
        ProbeResult otherSide = new ProbeResult(ProbeProtocol.UDP, 30_000, 10_000, 0, 3, 3, 1_000);
        assertThat(e.next(known, far, otherSide).rttMicros())
                .as("beyond the band, but on the other side: noise, averaged in (the two average to the estimate)")
                .isEqualTo(50_000);
    }

    @Test
    void twoRoundsAsOneWeighTheirMediansByTheirReplies() {
        ProbeResult first = new ProbeResult(ProbeProtocol.UDP, 90_000, 10_000, 7, 3, 3, 4_000);
        ProbeResult second = new ProbeResult(ProbeProtocol.UDP, 60_000, 6_666, 0, 3, 2, 1_000);
        assertThat(first.and(second)).isEqualTo(new ProbeResult(ProbeProtocol.UDP, 78_000, 8_333, 7, 6, 5, 2_800));
        assertThatThrownBy(() -> first.and(new ProbeResult(ProbeProtocol.TCP, 60_000, 10_000, 0, 3, 3, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPathIsContestedWhileAnotherIsWithinItsChangeBand() {
        assertThat(RttEstimator.contested(100_000, 13_000, 130_000))
                .as("30 ms apart, jitter 13 ms")
                .isTrue();
        assertThat(RttEstimator.contested(100_000, 13_000, 150_000)).isFalse();
        assertThat(RttEstimator.contested(100_000, 0, 109_000))
                .as("a steady path: within two floors (10 ms at 100 ms)")
                .isTrue();
        assertThat(RttEstimator.contested(100_000, 0, 120_000)).isFalse();
    }

    @Test
    void aFirstRoundStandsAloneAndTheJitterFollowsTheSpread() {
        RttEstimator e = new RttEstimator(0.25);
        ProbeResult first = new ProbeResult(ProbeProtocol.UDP, 50_000, 10_000, 0, 3, 3, 4_000);
        assertThat(e.next(null, first)).isEqualTo(new RttEstimator.Estimate(50_000, 4_000, 10_000));
        Path known = Path.of("A", 50_000, 10_000, 0, ProbeProtocol.UDP, 0, "a", 4_000);
        ProbeResult within = new ProbeResult(ProbeProtocol.UDP, 58_000, 6_666, 0, 3, 2, 1_000);
        assertThat(e.next(known, within))
                .as("8 ms off, under three jitters (12 ms): averaged in, two replies as two steps (0.4375)")
                .isEqualTo(new RttEstimator.Estimate(53_500, 5_000, 8_541));
        ProbeResult beyond = new ProbeResult(ProbeProtocol.UDP, 70_000, 10_000, 0, 3, 3, 1_000);
        assertThat(e.next(known, beyond).rttMicros())
                .as("20 ms off: a changed path")
                .isEqualTo(70_000);
        ProbeResult lone = new ProbeResult(ProbeProtocol.UDP, 70_000, 3_333, 0, 3, 1, 0);
        assertThat(e.next(known, lone).rttMicros())
                .as("one reply alone does not restart the estimate")
                .isEqualTo(55_000);
    }
}
