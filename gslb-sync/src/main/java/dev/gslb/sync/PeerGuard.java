package dev.gslb.sync;

import dev.gslb.probe.proximity.Path;
import java.util.concurrent.TimeUnit;

/**
 * What one paired peer may do here, checked on every item it sends: at most so many items a
 * second (burst twice that), measurement times no further ahead than the allowed clock skew
 * (clamped to now), and at most so many new LDNS a minute in the proximity table. One guard per
 * peer, used by the one connection that peer has open at a time.
 *
 * <p>The whole-state items are bounded by size as well as by this rate: a configuration by its
 * frame ({@link Wire#MAX_CONFIG_FRAME}), runtime states by {@link Wire#MAX_RUNTIME_STATES} and
 * DNSSEC keys by {@link Wire#MAX_KEYS}, one to a frame. Runtime states and keys also reach their
 * owner at most ten times a second per peer, the newest of a faster run kept ({@link OfferPacer}):
 * each costs a parse, and dropping one here instead would leave the peer's last change unapplied.
 */
final class PeerGuard {
    private final long intervalNanos;
    private final long burstNanos;
    private final long skewMillis;
    private final int newPerMinute;
    private long tat;
    private long windowStart;
    private int created;

    PeerGuard(SyncSettings settings, int newLdnsPerMinute) {
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / settings.peerItemsPerSecond();
        this.burstNanos = intervalNanos * settings.peerItemsPerSecond() * 2L;
        this.skewMillis = settings.maxClockSkew().toMillis();
        this.newPerMinute = newLdnsPerMinute;
        this.tat = System.nanoTime() - burstNanos;
    }

    /**
     * How many of {@code items} more are within the peer's rate (GCRA), the first ones of them; the
     * rest are over it. A frame's items are admitted together, at one reading of the clock: a
     * snapshot's millions of items read it once each before, a twentieth of a fresh peer's time.
     */
    synchronized int admit(int items) {
        long now = System.nanoTime();
        long start = Math.max(tat, now - burstNanos);
        long fit = now < start ? 0 : Math.min(items, (now - start) / intervalNanos);
        tat = start + fit * intervalNanos;
        return (int) fit;
    }

    /** A measurement time no later than now plus the allowed skew. */
    long clamp(long at, long now) {
        return at > now + skewMillis ? now : at;
    }

    Path clamp(Path p, long now) {
        long at = clamp(p.measuredAt(), now);
        return at == p.measuredAt()
                ? p
                : new Path(
                        p.dataCenter(), p.rttMicros(), p.completion(), p.hops(), p.protocol(), at, p.measuredBy(), 0);
    }

    /** True when the peer may add one more LDNS to the table this minute. */
    synchronized boolean mayCreate(long now) {
        if (now - windowStart > 60_000) {
            windowStart = now;
            created = 0;
        }
        return created++ < newPerMinute;
    }
}
