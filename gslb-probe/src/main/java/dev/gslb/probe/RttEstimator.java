package dev.gslb.probe;

import dev.gslb.probe.proximity.Path;

/**
 * How a data center's path to an LDNS is estimated from its probe rounds (docs/operator-guide.md,
 * "How a path's RTT is estimated"). A round gives the median of its replies; the estimate is a
 * moving average of round medians ({@code gain} is the weight of the new one) with a jitter
 * estimate beside it, the mean deviation of rounds from the estimate (weight 1/4), as TCP keeps
 * SRTT and RTTVAR (RFC 6298). Averaging rounds is what makes a jittery path's estimate steady
 * enough to rank two data centers 20 ms apart; the jitter says how far a reply may stray before
 * it means something.
 *
 * <p>Each reply of a round is one step of the average (a round of three replies weighs
 * 1 - (1 - gain)^3). A route change must not be averaged in slowly: a round of several replies whose median is
 * further from the estimate than {@link #changeBand} (three jitters, at least two floors) starts
 * the estimate again from that round. On a jittery path one unlucky round gets that far now and
 * then, and starting again from it threw every earlier round away: so the scheduler takes a second
 * round at once when a round {@link #looksChanged looks like a change}, and only when that one is
 * beyond the band on the same side does the estimate start again (from both rounds).
 */
public record RttEstimator(double gain) {
    static final double JITTER_GAIN = 0.25;
    /** The smallest deviation that counts: 2 ms or 5 % of the RTT, whichever is larger. */
    static final long FLOOR_MICROS = 2_000;

    static final int FLOOR_PERCENT = 5;

    public RttEstimator {
        if (!(gain > 0 && gain <= 1)) {
            throw new IllegalArgumentException("gain must be above 0 and at most 1, not " + gain);
        }
    }

    /** A path's estimate after a round: RTT, jitter (mean deviation) and completion, smoothed. */
    public record Estimate(long rttMicros, long jitterMicros, int completion) {}

    static long floor(long rttMicros) {
        return Math.max(FLOOR_MICROS, rttMicros * FLOOR_PERCENT / 100);
    }

    /**
     * How far one reply may be from the estimate and still confirm it (a refresh's first probe):
     * three jitters, as a round's median may be before it counts as a change. Under uniform jitter
     * almost no reply of an unchanged path falls outside, so a refresh costs one probe unless the
     * probe is lost or the path changed.
     */
    public static long tolerance(long rttMicros, long jitterMicros) {
        return Math.max(3 * jitterMicros, floor(rttMicros));
    }

    /** Beyond this distance a round's median is a changed path, not noise. */
    static long changeBand(long rttMicros, long jitterMicros) {
        return Math.max(3 * jitterMicros, 2 * floor(rttMicros));
    }

    /**
     * The estimate after round {@code r}, given the {@code previous} path of the same data center
     * over the same protocol while still fresh (null: none, the round stands alone).
     */
    public Estimate next(Path previous, ProbeResult r) {
        if (previous == null) {
            return new Estimate(r.rttMicros(), r.spreadMicros(), r.completion());
        }
        return looksChanged(previous, r) ? restart(previous, r) : average(previous, r);
    }

    /**
     * The estimate after round {@code r}, which {@link #looksChanged looked like a change}, and
     * {@code again}, the round taken at once to confirm it: the path changed when both are beyond
     * the band on the same side, and the estimate starts again from the two together; otherwise
     * {@code r} was an unlucky round, and the two are averaged in as one round of all their replies.
     */
    public Estimate next(Path previous, ProbeResult r, ProbeResult again) {
        ProbeResult both = r.and(again);
        long rtt = previous.rttMicros();
        long off = again.rttMicros() - rtt; // one reply will do: the first round had several
        boolean confirmed = Math.abs(off) > changeBand(rtt, previous.jitterMicros())
                && Long.signum(off) == Long.signum(r.rttMicros() - rtt);
        return confirmed ? restart(previous, both) : average(previous, both);
    }

    private static Estimate restart(Path previous, ProbeResult r) {
        return new Estimate(r.rttMicros(), Math.max(r.spreadMicros(), previous.jitterMicros() / 2), r.completion());
    }

    private Estimate average(Path previous, ProbeResult r) {
        long rtt = previous.rttMicros();
        long jitter = previous.jitterMicros();
        long off = r.rttMicros() - rtt;
        // A lone reply far off counts as at most the band: one outlier must not widen the band so much
        // that the next round, confirming a real change, still looks like noise.
        long deviation = Math.min(Math.abs(off), changeBand(rtt, jitter));
        double weight = weightOf(r.replies());
        int completion = (int) Math.round(previous.completion() + weight * (r.completion() - previous.completion()));
        return new Estimate(
                Math.round(rtt + weight * off), Math.round(jitter + JITTER_GAIN * (deviation - jitter)), completion);
    }

    /**
     * Whether round {@code r} is beyond the change band of the {@code previous} estimate with more
     * than one reply: alone, it restarts the estimate; the scheduler takes a second round first.
     */
    public static boolean looksChanged(Path previous, ProbeResult r) {
        return previous != null
                && r.replies() > 1
                && Math.abs(r.rttMicros() - previous.rttMicros())
                        > changeBand(previous.rttMicros(), previous.jitterMicros());
    }

    /**
     * The weight of a round of {@code replies}: each reply one step of the average, so a full round
     * of three counts as three single-probe refreshes would (1 - (1 - gain)^replies).
     */
    double weightOf(int replies) {
        return 1 - Math.pow(1 - gain, Math.max(1, replies));
    }

    /**
     * Whether another data center's path at {@code otherMicros} is close enough to this one's estimate
     * that the next rounds may reorder them: within the change band. Such a path is worth a full round
     * at every refresh; one far ahead or behind is confirmed by a single probe.
     */
    public static boolean contested(long rttMicros, long jitterMicros, long otherMicros) {
        return Math.abs(rttMicros - otherMicros) <= changeBand(rttMicros, jitterMicros);
    }
}
