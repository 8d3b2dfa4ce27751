package dev.gslb.dns.server;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of a server's listening loops still serve. A loop survives what one packet or connection
 * throws (counted in {@link #survived}); one that cannot go on reports {@link #failed}, so /health
 * can say so, and when no loop is left the {@link #onNothingServing} actions run (the serve
 * command exits non-zero, so systemd or the container runtime restarts it).
 */
public final class ListenerHealth {
    private static final Logger log = LoggerFactory.getLogger(ListenerHealth.class);

    private final Set<String> serving = ConcurrentHashMap.newKeySet();
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    private final AtomicLong survived = new AtomicLong();
    private final List<Runnable> nothingServing = new CopyOnWriteArrayList<>();

    /** A loop starts serving. */
    void serving(String listener) {
        failed.remove(listener);
        serving.add(listener);
    }

    /** A loop stopped because it was told to: not a failure. */
    void stopped(String listener) {
        serving.remove(listener);
    }

    /** A loop caught a throwable from one packet or connection and went on. */
    void survived() {
        survived.incrementAndGet();
    }

    /** A loop cannot go on; {@code why} says what the operator sees. */
    void failed(String listener, String why) {
        if (!serving.remove(listener)) {
            return;
        }
        failed.put(listener, why);
        log.error("DNS listener {} failed: {}", listener, why);
        if (serving.isEmpty()) {
            log.error("no DNS listener is left serving");
            nothingServing.forEach(Runnable::run);
        }
    }

    /** Runs {@code action} when the last serving loop fails. */
    public void onNothingServing(Runnable action) {
        nothingServing.add(action);
    }

    /** What failed, one line each ("UDP on port 53 stopped: ..."); empty when all serve. */
    public List<String> failures() {
        return failed.values().stream().sorted().toList();
    }

    /** Throwables the loops caught from single packets or connections and survived. */
    public long survivedErrors() {
        return survived.get();
    }
}
