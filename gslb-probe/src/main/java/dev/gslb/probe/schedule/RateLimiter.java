package dev.gslb.probe.schedule;

import dev.gslb.probe.ProbeRound;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Spaces probes evenly at no more than {@code perSecond}: each permit reserves the next free slot
 * and waits for it. No burst allowance, so the cap holds over any window, however many callers.
 */
public final class RateLimiter implements ProbeRound.Permits {
    /** The limiter's time: the system's monotonic clock in service, a virtual one in tests. */
    public interface Ticker {
        long nanoTime();

        /** Returns once {@link #nanoTime()} has reached {@code nanos}. */
        void waitUntil(long nanos) throws InterruptedException;

        Ticker SYSTEM = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void waitUntil(long nanos) throws InterruptedException {
                for (long wait = nanos - System.nanoTime(); wait > 0; wait = nanos - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            }
        };
    }

    private final long intervalNanos;
    private final Ticker ticker;
    private final AtomicLong nextFree;

    public RateLimiter(int perSecond) {
        this(perSecond, Ticker.SYSTEM);
    }

    public RateLimiter(int perSecond, Ticker ticker) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("probe rate must be positive");
        }
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
        this.ticker = ticker;
        this.nextFree = new AtomicLong(ticker.nanoTime());
    }

    @Override
    public void acquire() throws InterruptedException {
        ticker.waitUntil(reserve());
    }

    /** Takes the next free slot, at or after now, and returns its time; never waits. */
    long reserve() {
        long now = ticker.nanoTime();
        for (; ; ) {
            long next = nextFree.get();
            long slot = Math.max(now, next);
            if (nextFree.compareAndSet(next, slot + intervalNanos)) {
                return slot;
            }
        }
    }
}
