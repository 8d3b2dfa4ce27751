package dev.gslb.dns.rrl;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of rate limiting: a network starts or stops being limited. Itself rate-limited
 * (at most {@link #LINES_PER_SECOND} a second; the lines left out are counted and reported in the
 * next one), and written by a background thread, so a spoofed flood neither fills the disk nor
 * makes an event loop wait for the log.
 */
public final class RateLimitLog implements AutoCloseable {
    public static final int LINES_PER_SECOND = 5;
    private static final Logger log = LoggerFactory.getLogger("gslb.rrl");

    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(64);
    /** (second << 8) | lines admitted in that second. */
    private final AtomicLong window = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();
    private final Thread writer;

    public RateLimitLog() {
        writer = Thread.ofVirtual().name("rrl-log").start(this::write);
    }

    /** Whether a line may be logged now; call before building it, so a suppressed line costs nothing. */
    public boolean admit() {
        long second = System.nanoTime() / 1_000_000_000L;
        for (; ; ) {
            long w = window.get();
            long next = w >>> 8 == second ? w + 1 : second << 8 | 1;
            if ((next & 0xFF) > LINES_PER_SECOND) {
                suppressed.incrementAndGet();
                return false;
            }
            if (window.compareAndSet(w, next)) {
                return true;
            }
        }
    }

    /** Queues an admitted line; never blocks (a full queue counts it as suppressed). */
    public void line(String text) {
        long left = suppressed.getAndSet(0);
        String l = left == 0 ? text : text + " (" + left + " rate-limit log lines left out before this one)";
        if (!lines.offer(l)) {
            suppressed.incrementAndGet();
        }
    }

    private void write() {
        try {
            for (; ; ) {
                log.info(lines.take());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        writer.interrupt();
    }
}
