package dev.gslb.probe.health;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * The virtual servers waiting for an operator's resume (F5's "manual resume",
 * docs/operator-guide.md "Bring a server back after a failure"): a monitor with
 * {@code manual-resume: true} took each from UP to DOWN, and it stays DOWN, whatever its monitors
 * say since, until `gslb resume vs NAME`. Kept in a file of the state folder ({@link WaitingFile})
 * so that a restart does not resume them by itself; the instants their monitors passed again are
 * not kept (after a restart the checks start again).
 *
 * <p>Only a failure after an UP makes a server wait: a monitor's first verdict after the start
 * (or after a reload changed the server) is not one. {@link HealthMonitor} changes this under its
 * own lock; the admin API reads it without one. A change is written before it is visible:
 * whoever sees a wait finds it kept.
 */
public final class ManualResume {
    /**
     * One server's wait.
     *
     * @param monitor     the monitor that took it DOWN
     * @param since       when it did
     * @param passedAgain when its monitors passed again (it would be UP but for the wait), or null
     *                    while they fail
     */
    public record Waiting(String monitor, Instant since, Instant passedAgain) {}

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final WaitingFile file;

    private ManualResume(WaitingFile file) {
        this.file = file;
        if (file != null) {
            waiting.putAll(file.read());
        }
    }

    /** Waits that last until this process ends (tests, and the link gateways, which never wait). */
    public static ManualResume inMemory() {
        return new ManualResume(null);
    }

    /** Waits kept in {@code path}, starting with those it holds (none when it is absent or unreadable). */
    public static ManualResume keptIn(Path path) {
        return new ManualResume(new WaitingFile(path));
    }

    /** The wait of {@code server}, or null when it is not waiting. */
    public Waiting waiting(String server) {
        return waiting.get(server);
    }

    public Set<String> servers() {
        return Set.copyOf(waiting.keySet());
    }

    /** {@code monitor} took {@code server} DOWN at {@code now}; false when it was waiting already. */
    boolean hold(String server, String monitor, Instant now) {
        if (waiting.containsKey(server)) {
            return false;
        }
        Waiting w = new Waiting(monitor, now, null);
        Map<String, Waiting> next = new HashMap<>(waiting);
        next.put(server, w);
        save(next);
        waiting.put(server, w);
        return true;
    }

    /**
     * The monitors of a waiting {@code server} pass ({@code passing}) or not, as of {@code now}.
     * Returns true when they have just passed again, the moment the operator is to hear of.
     */
    boolean monitorsPass(String server, boolean passing, Instant now) {
        Waiting w = waiting.get(server);
        if (w == null || passing == (w.passedAgain() != null)) {
            return false;
        }
        waiting.put(server, new Waiting(w.monitor(), w.since(), passing ? now : null));
        return passing;
    }

    /** Ends the wait of {@code server}; false when it was not waiting. */
    boolean resume(String server) {
        return end(List.of(server));
    }

    /** Ends the waits {@code keep} (server, monitor) no longer allows; returns their servers. */
    List<String> keepOnly(BiPredicate<String, String> keep) {
        List<String> dropped = new ArrayList<>();
        waiting.forEach((server, w) -> {
            if (!keep.test(server, w.monitor())) {
                dropped.add(server);
            }
        });
        end(dropped);
        return dropped;
    }

    /** Ends the waits of {@code servers}; false when none was waiting. */
    private boolean end(List<String> servers) {
        Map<String, Waiting> next = new HashMap<>(waiting);
        if (!next.keySet().removeAll(servers)) {
            return false;
        }
        save(next);
        servers.forEach(waiting::remove);
        return true;
    }

    private void save(Map<String, Waiting> next) {
        if (file != null) {
            file.write(next);
        }
    }
}
