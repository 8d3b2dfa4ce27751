package dev.gslb.probe.proximity;

import dev.gslb.topology.Address;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A rate per source network (/24 for IPv4, /48 for IPv6), so one network cannot fill the
 * proximity table or drive the probes alone. GCRA over a fixed table of longs: networks hash to
 * a slot and two networks that share one share its rate, which only errs on the strict side.
 * Fixed size and allocation-free because every query from a new LDNS passes here. It counts in
 * the caller's time, the query's one clock read (wall-clock milliseconds); a clock stepped back by
 * more than a burst gives each network its burst again rather than refusing it until the clock
 * catches up (listener threads' reads a few milliseconds apart are no step).
 */
public final class NetworkRate {
    private static final int SLOTS = 1 << 16;

    private final long intervalNanos;
    private final long burstNanos;
    private final AtomicLongArray tat = new AtomicLongArray(SLOTS);

    /** {@code perSecond} on average, up to {@code burst} at once. */
    public NetworkRate(int perSecond, int burst) {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("a network rate needs at least 1/s and a burst of at least 1");
        }
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
        this.burstNanos = intervalNanos * burst;
    }

    /**
     * True when the network of this address (128-bit form, IPv4 mapped) may have one more at
     * {@code nowMillis} (epoch milliseconds, so never near zero: 0 means an unused slot).
     */
    public boolean tryAcquire(long hi, long lo, long nowMillis) {
        boolean ipv4 = Address.ipv4(hi, lo);
        long network = ipv4 ? lo & 0xFFFF_FFFF_FFFF_FF00L : 0;
        long high = ipv4 ? 0 : hi & 0xFFFF_FFFF_FFFF_0000L;
        int slot = (int) (mix(high * 0x9E3779B97F4A7C15L + network) & (SLOTS - 1));
        long now = TimeUnit.MILLISECONDS.toNanos(nowMillis);
        for (; ; ) {
            long t = tat.get(slot);
            // t is at most its writer's now; further ahead than a burst, the clock was stepped back
            long start = t - now > burstNanos ? now - burstNanos : Math.max(t, now - burstNanos);
            if (start + intervalNanos > now) {
                return false;
            }
            if (tat.compareAndSet(slot, t, start + intervalNanos)) {
                return true;
            }
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        return z ^ (z >>> 33);
    }
}
