package dev.gslb.sync;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What was logged already, so that a line about one source and reason is written once, however
 * often a peer or an attacker repeats it. The memory is bounded: past {@value #MAX} lines it starts
 * over (a line may then come once more).
 */
final class LoggedOnce {
    private static final int MAX = 1000;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /** True the first time {@code line} is seen: log it then. */
    boolean first(String line) {
        if (seen.size() >= MAX) {
            seen.clear();
        }
        return seen.add(line);
    }
}
