package dev.gslb.probe.load;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** A load source that answers what the test scripted: a reading, an error, or a read that hangs. */
final class ScriptedSource implements LoadSource {
    /** A read that ignores its timeout and interrupts until {@link #release}. */
    static final Object HANG = new Object();

    private final Set<Metric> metrics;
    private final String name;
    private final ArrayDeque<Object> script = new ArrayDeque<>();
    private final CountDownLatch released = new CountDownLatch(1);
    volatile boolean closed;

    ScriptedSource(String name, Metric... metrics) {
        this.name = name;
        this.metrics = EnumSet.of(metrics[0], metrics);
    }

    /** The next reads: a {@code Map<Metric, Double>}, a {@link LoadReading}, an IOException or {@link #HANG}. */
    synchronized ScriptedSource then(Object... next) {
        for (Object o : next) {
            script.addLast(o instanceof Map<?, ?> m ? reading(m, 0) : o);
        }
        return this;
    }

    @SuppressWarnings("unchecked")
    static LoadReading reading(Map<?, ?> values, long epoch) {
        return new LoadReading((Map<Metric, Double>) values, epoch);
    }

    void release() {
        released.countDown();
    }

    @Override
    public Set<Metric> metrics() {
        return metrics;
    }

    @Override
    public LoadReading read(Duration timeout) throws IOException {
        Object next;
        synchronized (this) {
            next = script.poll();
        }
        if (next == null) {
            throw new IOException("nothing scripted");
        }
        if (next == HANG) {
            boolean interrupted = false;
            for (; ; ) {
                try {
                    released.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // ignored, as a badly written source would
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("released");
        }
        if (next instanceof IOException e) {
            throw e;
        }
        return (LoadReading) next;
    }

    @Override
    public String describe() {
        return "scripted " + name;
    }

    @Override
    public void close() {
        closed = true;
    }
}
