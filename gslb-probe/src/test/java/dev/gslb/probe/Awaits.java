package dev.gslb.probe;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits on a condition, not on the clock: returns as soon as it holds, fails loudly when it never does. */
public final class Awaits {
    private Awaits() {}

    /** Polls {@code condition} every 10 ms; throws {@link AssertionError} naming {@code what} after {@code limit}. */
    public static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        until(what, limit, condition::getAsBoolean, Boolean::booleanValue);
    }

    /**
     * Polls {@code probe} every 10 ms and returns the first value {@code done} accepts; throws {@link AssertionError}
     * naming {@code what} and the last value seen after {@code limit}.
     */
    public static <T> T until(String what, Duration limit, Supplier<T> probe, Predicate<? super T> done)
            throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        T value = probe.get();
        while (!done.test(value)) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError(
                        "still waiting after " + limit.toMillis() + " ms: " + what + " (last seen: " + value + ")");
            }
            Thread.sleep(10); // the poll itself: the one sleep a wait on a condition needs
            value = probe.get();
        }
        return value;
    }
}
