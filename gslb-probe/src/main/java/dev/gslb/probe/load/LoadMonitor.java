package dev.gslb.probe.load;

import dev.gslb.site.ServerLoad;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the load of the virtual servers of this instance's data center (the one writer of it), as
 * {@code LinkMonitor} reads its links' traffic: one poller per server with a {@code load:}, ticked
 * by one timer and reading on virtual threads, off the query path. Each read is bounded by the
 * server's timeout (a source that ignores it is abandoned there, and not read again while it
 * hangs); a failed, late or garbage read makes that source's metrics unknown at once, never zero,
 * logged once per change of the error. After every poll the server's {@link ServerLoad}, with its
 * limits applied (hysteresis in {@link ServerLimits}), goes to the listeners.
 */
public final class LoadMonitor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LoadMonitor.class);
    /** A source is given its own timeout first: its own error says more than ours. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final String dataCenter;
    private final InstantSource clock;
    private final MeterRegistry registry;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("load-timer").factory());
    private final ExecutorService readers = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("load-read-", 0).factory());
    private final Map<String, Poller> pollers = new ConcurrentHashMap<>();
    private final List<BiConsumer<String, ServerLoad>> listeners = new CopyOnWriteArrayList<>();
    private volatile Map<String, LoadTarget> targets;
    private boolean started;

    /** @param targets every server with a {@code load:}, of any data center (peer sync checks owners by them) */
    public LoadMonitor(List<LoadTarget> targets, String dataCenter, InstantSource clock, MeterRegistry registry) {
        this.dataCenter = dataCenter;
        this.clock = clock;
        this.registry = registry;
        this.targets = byName(targets);
        for (LoadTarget t : targets) {
            if (polledHere(t)) {
                pollers.put(t.server(), new Poller(t));
            }
        }
    }

    private static Map<String, LoadTarget> byName(List<LoadTarget> targets) {
        Map<String, LoadTarget> m = new LinkedHashMap<>();
        targets.forEach(t -> m.put(t.server(), t));
        return Map.copyOf(m);
    }

    private boolean polledHere(LoadTarget t) {
        return t.load() != null && t.dataCenter().equals(dataCenter);
    }

    /** Called with every measurement of a server polled here ({@link ServerLoad#UNKNOWN} when it stops being). */
    public void onChange(BiConsumer<String, ServerLoad> listener) {
        listeners.add(listener);
    }

    public synchronized void start() {
        started = true;
        pollers.values().forEach(Poller::schedule);
    }

    /**
     * Follows a new configuration: a server whose {@code load:} is unchanged keeps its poller and
     * window (its limits are the new ones); a changed one starts afresh; one no longer polled here
     * is unknown from now on. Returns how many pollers started or stopped.
     */
    public synchronized int reconfigure(List<LoadTarget> next) {
        Map<String, LoadTarget> all = byName(next);
        int changed = 0;
        for (Poller p : List.copyOf(pollers.values())) {
            LoadTarget n = all.get(p.target.server());
            if (n != null && polledHere(n) && n.load().sameAs(p.target.load())) {
                if (n.load() != p.target.load()) {
                    closeUnused(n.load(), p.target.load());
                }
                p.target = new LoadTarget(n.server(), n.dataCenter(), p.target.load(), n.limits());
            } else {
                pollers.remove(p.target.server());
                p.stop();
                listeners.forEach(c -> c.accept(p.target.server(), ServerLoad.UNKNOWN));
                changed++;
            }
        }
        for (LoadTarget t : next) {
            if (polledHere(t) && !pollers.containsKey(t.server())) {
                Poller p = new Poller(t);
                pollers.put(t.server(), p);
                if (started) {
                    p.schedule();
                }
                changed++;
            }
        }
        targets = all;
        return changed;
    }

    private static void closeUnused(LoadSpec unused, LoadSpec kept) {
        for (LoadSource s : unused.sources()) {
            if (!kept.sources().contains(s)) {
                s.close();
            }
        }
    }

    /** Every server with a {@code load:}, local or not (null for one without). */
    public LoadTarget target(String server) {
        return targets.get(server);
    }

    /** The servers polled here. */
    public Collection<String> polled() {
        return List.copyOf(pollers.keySet());
    }

    /** This instance's last measurement of a server it polls, or null (not polled here, or not yet). */
    public ServerLoad local(String server) {
        Poller p = pollers.get(server);
        return p == null ? null : p.last;
    }

    /** One poll of {@code server} now, in this thread (unless one is running): tests, and the first figures. */
    public void pollNow(String server) throws InterruptedException {
        Poller p = pollers.get(server);
        if (p != null) {
            p.tick();
        }
    }

    @Override
    public synchronized void close() {
        timer.shutdownNow();
        readers.shutdownNow();
        pollers.values().forEach(Poller::stop);
    }

    private void count(String kind, String to) {
        Counter.builder("load_changes")
                .tag("kind", kind)
                .tag("to", to)
                .description("Server-load source errors (unknown/readable) and limit changes (over/under)"
                        + " measured here, once per change")
                .register(registry)
                .increment();
    }

    /** One server's reads, window and limit state. */
    private final class Poller {
        volatile LoadTarget target;
        volatile ServerLoad last;
        private final Map<LoadSource, LoadWindow> windows = new LinkedHashMap<>();
        private final Map<LoadSource, AtomicBoolean> reading = new ConcurrentHashMap<>();
        private final Map<LoadSource, String> errors = new ConcurrentHashMap<>();
        private final AtomicBoolean busy = new AtomicBoolean();
        private boolean over;
        private ScheduledFuture<?> tick;
        private volatile boolean stopped;

        Poller(LoadTarget target) {
            this.target = target;
            for (LoadSource s : target.load().sources()) {
                windows.put(s, new LoadWindow(s.metrics(), target.load().samples()));
                reading.put(s, new AtomicBoolean());
            }
        }

        void schedule() {
            long every = target.load().interval().toMillis();
            tick = timer.scheduleAtFixedRate(
                    () -> readers.execute(() -> {
                        try {
                            tick();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }),
                    0,
                    every,
                    TimeUnit.MILLISECONDS);
        }

        /** A poll, unless the last one still runs (a tick then passes: a poll is bounded in time anyway). */
        void tick() throws InterruptedException {
            if (!busy.compareAndSet(false, true)) {
                return;
            }
            try {
                if (!stopped) {
                    poll();
                }
            } finally {
                busy.set(false);
            }
        }

        private void poll() throws InterruptedException {
            LoadSpec spec = target.load();
            Duration timeout = spec.timeout();
            long deadline = System.nanoTime() + timeout.toNanos() + GRACE_NANOS;
            Map<LoadSource, Future<LoadReading>> reads = new LinkedHashMap<>();
            for (LoadSource s : spec.sources()) {
                AtomicBoolean running = reading.get(s);
                if (running.compareAndSet(false, true)) {
                    reads.put(s, readers.submit(() -> {
                        try {
                            return s.read(timeout);
                        } finally {
                            running.set(false);
                        }
                    }));
                } else {
                    reads.put(s, null); // still in its last read: it ignored its timeout and our interrupt
                }
            }
            for (Map.Entry<LoadSource, Future<LoadReading>> e : reads.entrySet()) {
                LoadSource s = e.getKey();
                String error;
                LoadReading r = null;
                if (e.getValue() == null) {
                    error = "its last read has not ended (it ignored the " + timeout.toMillis() + " ms timeout)";
                } else {
                    try {
                        r = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        error = garbage(s, r);
                    } catch (TimeoutException late) {
                        e.getValue().cancel(true);
                        error = "no answer within " + timeout.toMillis() + " ms";
                    } catch (ExecutionException failed) {
                        error = String.valueOf(failed.getCause().getMessage());
                    } catch (CancellationException cancelled) {
                        error = "read cancelled";
                    }
                }
                if (error == null) {
                    windows.get(s).read(r, clock.millis());
                } else {
                    windows.get(s).failed();
                }
                note(s, error);
            }
            publish();
        }

        /** A value no source of that metric can mean: the reading is garbage, not a load. */
        private static String garbage(LoadSource s, LoadReading r) {
            for (Metric m : List.of(Metric.CPU, Metric.MEMORY)) {
                if (s.metrics().contains(m) && r.get(m) > 100) {
                    return m.key() + " read as " + r.get(m) + ": not a percentage";
                }
            }
            return null;
        }

        /** Logs a source's error once per change of it, and its recovery once. */
        private void note(LoadSource s, String error) {
            String was = error == null ? errors.remove(s) : errors.put(s, error);
            String server = target.server();
            if (error != null && !error.equals(was)) {
                log.warn("virtual server {}: load from {} unknown: {}", server, s.describe(), error);
                count("source", "unknown");
            } else if (error == null && was != null) {
                log.info("virtual server {}: load readable again from {}", server, s.describe());
                count("source", "readable");
            }
        }

        private void publish() {
            LoadTarget t = target;
            ServerLoad measured = new ServerLoad(
                    whole(value(Metric.CONNECTIONS)),
                    value(Metric.CPU),
                    value(Metric.MEMORY),
                    value(Metric.LOAD_AVERAGE),
                    whole(value(Metric.BYTES)),
                    whole(value(Metric.PACKETS)),
                    (int) Math.min(Integer.MAX_VALUE, whole(value(Metric.SERVERS_UP))),
                    null,
                    clock.millis(),
                    dataCenter);
            boolean nowOver = t.limits().overLimit(measured, over);
            ServerLoad load =
                    measured.withOverLimitReason(nowOver ? t.limits().overLimitReason(t.server(), measured) : null);
            if (nowOver != over) {
                if (nowOver) {
                    log.warn("{}; it gets new answers only when no other server is left", load.overLimitReason());
                } else {
                    log.info("virtual server {} is back under its resume thresholds; answered again", t.server());
                }
                count("limit", nowOver ? "over" : "under");
            }
            over = nowOver;
            last = load;
            if (!stopped) {
                listeners.forEach(c -> c.accept(t.server(), load));
            }
        }

        /** {@code m} from the source that reads it, -1 when none does or it is unknown. */
        private double value(Metric m) {
            for (Map.Entry<LoadSource, LoadWindow> e : windows.entrySet()) {
                if (e.getKey().metrics().contains(m)) {
                    return e.getValue().value(m);
                }
            }
            return -1;
        }

        private static long whole(double v) {
            return v < 0 ? -1 : Math.round(Math.min(v, Long.MAX_VALUE / 2.0));
        }

        void stop() {
            stopped = true;
            if (tick != null) {
                tick.cancel(false);
            }
            target.load().sources().forEach(LoadSource::close);
        }
    }
}
