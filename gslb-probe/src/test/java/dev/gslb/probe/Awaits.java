package dev.gslb.probe;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits on a condition, not on the clock: returns as soon as it holds, fails loudly when it never does. */
public final class Awaits {
    private Awaits() {}

    /** Polls {@code condition} every 10 ms; throws {@link AssertionError} naming {@code what} after {@code limit}. */
    public static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("still waiting after " + limit.toSeconds() + " s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
