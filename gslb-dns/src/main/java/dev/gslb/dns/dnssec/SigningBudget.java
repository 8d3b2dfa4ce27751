package dev.gslb.dns.dnssec;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many signings the query path may do a second, over every zone (config
 * {@code dns.signatures-per-second}). A signature costs a hundred microseconds or more of CPU, and
 * names that do not exist, or that a wildcard covers, are without number: a flood of random names
 * with DO would otherwise buy one signing each. Beyond the budget a signer serves the previous
 * signatures while they are valid, else the answer is SERVFAIL. A rate of tokens with a burst of
 * one second's worth, kept as the time the next token is due (the generic cell rate algorithm):
 * one compare-and-set, no lock.
 */
public final class SigningBudget {
    /** No limit: every signing goes ahead. */
    public static final SigningBudget UNLIMITED = new SigningBudget(0, System::nanoTime);

    private static final long SECOND = 1_000_000_000L;

    private final long intervalNanos;
    private final LongSupplier nanos;
    /** When the bucket is empty again at the rate, if nothing more is taken (theoretical arrival time). */
    private final AtomicLong due;

    /** {@code perSecond} signings a second (0: unlimited), {@code nanos} the monotonic clock. */
    public SigningBudget(int perSecond, LongSupplier nanos) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("signatures-per-second must be 0 or more, not " + perSecond);
        }
        this.intervalNanos = perSecond == 0 ? 0 : SECOND / perSecond;
        this.nanos = nanos;
        this.due = new AtomicLong(nanos.getAsLong());
    }

    /** Whether one more signing may go ahead now (and if so, it is counted against the budget). */
    public boolean take() {
        if (intervalNanos == 0) {
            return true;
        }
        long now = nanos.getAsLong();
        while (true) {
            long before = due.get();
            long after = Math.max(before, now) + intervalNanos;
            if (after - now > SECOND) {
                return false;
            }
            if (due.compareAndSet(before, after)) {
                return true;
            }
        }
    }
}
