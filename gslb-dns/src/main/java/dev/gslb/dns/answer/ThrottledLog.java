package dev.gslb.dns.answer;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log lines from the query path (a network starts or stops being rate-limited; an internal
 * error). Itself rate-limited (at most {@link #LINES_PER_SECOND} a second; the lines left out are
 * counted and reported in the next one), and written by a background thread, so a flood neither
 * fills the disk nor makes an event loop wait for the log.
 */
public final class ThrottledLog implements AutoCloseable {
    static final int LINES_PER_SECOND = 5;

    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(64);
    /** (second << 8) | lines admitted in that second. */
    private final AtomicLong window = new AtomicLong();

    private final AtomicLong suppressed = new AtomicLong();
    private final Logger log;
    private final Thread writer;

    public ThrottledLog(String logger) {
        log = LoggerFactory.getLogger(logger);
        writer = Thread.ofVirtual().name(logger).start(this::write);
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
        String l = left == 0 ? text : text + " (" + left + " lines left out before this one)";
        if (!lines.offer(l)) {
            suppressed.incrementAndGet();
        }
    }

    private void write() {
        try {
            for (; ; ) {
                log.warn(lines.take());
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
