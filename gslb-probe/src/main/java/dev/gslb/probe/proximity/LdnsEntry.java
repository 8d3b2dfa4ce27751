package dev.gslb.probe.proximity;

import dev.gslb.probe.ProbeProtocol;
import java.util.Arrays;
import java.util.List;

/**
 * One LDNS in the proximity table: a path per data center, the probe state, and when it was last
 * seen asking. Immutable: a change builds a new entry and the table swaps it in, so the query
 * path always reads a whole one.
 */
public record LdnsEntry(Path[] paths, State state, ProbeProtocol protocol, long retryAt, long lastUsed) {
    public enum State {
        PROBING,
        PROBED,
        UNPROBEABLE
    }

    private static final Path[] NONE = new Path[0];

    public static LdnsEntry probing(long now) {
        return new LdnsEntry(NONE, State.PROBING, null, 0, now);
    }

    public List<Path> pathList() {
        return List.of(paths);
    }

    public Path path(String dataCenter) {
        for (Path p : paths) {
            if (p.dataCenter().equals(dataCenter)) {
                return p;
            }
        }
        return null;
    }

    /** This entry with {@code path} replacing the path of its data center when it is newer. */
    public LdnsEntry withPath(Path path) {
        Path[] next = null;
        for (int i = 0; i < paths.length; i++) {
            if (paths[i].dataCenter().equals(path.dataCenter())) {
                if (paths[i].measuredAt() > path.measuredAt()) {
                    return this; // older news
                }
                next = paths.clone();
                next[i] = path;
            }
        }
        if (next == null) {
            next = Arrays.copyOf(paths, paths.length + 1);
            next[paths.length] = path;
        }
        return new LdnsEntry(next, State.PROBED, path.protocol(), 0, lastUsed);
    }

    public LdnsEntry unprobeable(long retryAtMillis) {
        return new LdnsEntry(paths, paths.length > 0 ? state : State.UNPROBEABLE, protocol, retryAtMillis, lastUsed);
    }

    public LdnsEntry usedAt(long now) {
        return new LdnsEntry(paths, state, protocol, retryAt, now);
    }
}
