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
    private final long intervalNanos;
    private final AtomicLong nextFree = new AtomicLong(System.nanoTime());

    public RateLimiter(int perSecond) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("probe rate must be positive");
        }
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
    }

    @Override
    public void acquire() throws InterruptedException {
        long now = System.nanoTime();
        long slot;
        for (; ; ) {
            long next = nextFree.get();
            slot = Math.max(now, next);
            if (nextFree.compareAndSet(next, slot + intervalNanos)) {
                break;
            }
        }
        for (long wait = slot - System.nanoTime(); wait > 0; wait = slot - System.nanoTime()) {
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
