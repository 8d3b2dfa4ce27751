package dev.gslb.probe;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One measurement of one LDNS: the protocols in configured order, {@code samples} probes each;
 * the first protocol that gets any reply wins. Each probe first takes a permit from the rate
 * limiter, so no caller can make this server send faster than the global cap.
 *
 * <p>A round that is given an {@link Expectation} (a refresh of a known path) starts with one
 * probe of the expected protocol and stops there when its reply is within the tolerance of the
 * estimate: most paths do not change between refreshes, and one packet says so. A lost probe gets
 * one more try; a surprising reply, or two lost, get the remaining samples, so a change is measured
 * as well as by a first round.
 */
public final class ProbeRound {
    /** Where each probe waits for permission to be sent (the global rate cap). */
    public interface Permits {
        void acquire() throws InterruptedException;
    }

    /**
     * What a refresh expects: the path's estimated RTT over {@code protocol}, and how far from it a
     * single reply may be to confirm it.
     */
    public record Expectation(ProbeProtocol protocol, long rttMicros, long toleranceMicros) {
        boolean confirmedBy(Sample s) {
            return s.replied() && Math.abs(s.rttMicros() - rttMicros) <= toleranceMicros;
        }
    }

    private final List<Prober> probers;
    private final int samples;
    private final Duration timeout;
    private final Permits permits;

    public ProbeRound(List<Prober> probers, int samples, Duration timeout, Permits permits) {
        this.probers = List.copyOf(probers);
        this.samples = samples;
        this.timeout = timeout;
        this.permits = permits;
    }

    public ProbeResult run(InetAddress ldns) throws InterruptedException {
        return run(ldns, null);
    }

    /** A round that may stop after one probe when it confirms {@code expected} (null: a full round). */
    public ProbeResult run(InetAddress ldns, Expectation expected) throws InterruptedException {
        int sent = 0;
        boolean first = true;
        for (Prober p : probers) {
            if (!p.available()) {
                continue;
            }
            boolean check = first && expected != null && expected.protocol() == p.protocol() && samples > 1;
            first = false;
            long[] rtts = new long[samples];
            int replies = 0;
            int ttl = -1;
            int tried = 0;
            try (Prober.Series series = p.series(ldns)) {
                for (int i = 0; i < samples; i++) {
                    permits.acquire();
                    Sample s = series.sample(timeout);
                    sent++;
                    tried++;
                    if (s.replied()) {
                        rtts[replies++] = s.rttMicros();
                        ttl = Math.max(ttl, s.replyTtl());
                    }
                    if (check && i <= 1 && replies == 1 && expected.confirmedBy(s)) {
                        break; // the first reply, after at most one lost probe, confirms the estimate
                    }
                }
            }
            if (replies > 0) {
                long[] got = Arrays.copyOf(rtts, replies);
                Arrays.sort(got);
                long median =
                        got.length % 2 == 1 ? got[got.length / 2] : (got[got.length / 2 - 1] + got[got.length / 2]) / 2;
                long spread = 0;
                for (long r : got) {
                    spread += Math.abs(r - median);
                }
                return new ProbeResult(
                        p.protocol(), median, replies * 10000 / tried, hopsFrom(ttl), sent, replies, spread / replies);
            }
        }
        return ProbeResult.unprobeable(sent);
    }

    /** Hosts start at 64, 128 or 255; the hops are what the nearest start lost on the way. */
    static int hopsFrom(int ttl) {
        if (ttl <= 0) {
            return 0;
        }
        int start = ttl <= 64 ? 64 : ttl <= 128 ? 128 : 255;
        return start - ttl + 1;
    }
}
