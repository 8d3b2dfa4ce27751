package dev.gslb.probe;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One measurement of one LDNS: the protocols in configured order, {@code samples} probes each;
 * the first protocol that gets any reply wins. Each probe first takes a permit from the rate
 * limiter, so no caller can make this server send faster than the global cap.
 */
public final class ProbeRound {
    /** Where each probe waits for permission to be sent (the global rate cap). */
    public interface Permits {
        void acquire() throws InterruptedException;
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
        int sent = 0;
        for (Prober p : probers) {
            if (!p.available()) {
                continue;
            }
            long[] rtts = new long[samples];
            int replies = 0;
            int ttl = -1;
            try (Prober.Series series = p.series(ldns)) {
                for (int i = 0; i < samples; i++) {
                    permits.acquire();
                    Sample s = series.sample(timeout);
                    sent++;
                    if (s.replied()) {
                        rtts[replies++] = s.rttMicros();
                        ttl = Math.max(ttl, s.replyTtl());
                    }
                }
            }
            if (replies > 0) {
                long[] got = Arrays.copyOf(rtts, replies);
                Arrays.sort(got);
                long median =
                        got.length % 2 == 1 ? got[got.length / 2] : (got[got.length / 2 - 1] + got[got.length / 2]) / 2;
                return new ProbeResult(p.protocol(), median, replies * 10000 / samples, hopsFrom(ttl), sent, replies);
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
