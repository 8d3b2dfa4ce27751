package dev.gslb.topology.load;

import dev.gslb.topology.TopologyException;
import java.util.ArrayList;
import java.util.List;

/** Collects file:line problems of one load; a long list is cut so the first ones stay readable. */
final class Problems {
    private static final int SHOWN = 10;
    private final List<String> lines = new ArrayList<>();
    private int count;

    void add(String file, int line, String message) {
        count++;
        if (lines.size() < SHOWN) {
            lines.add(line > 0 ? file + ":" + line + ": " + message : file + ": " + message);
        }
    }

    int count() {
        return count;
    }

    String first() {
        return lines.getFirst();
    }

    void throwIfAny() throws TopologyException {
        if (count > 0) {
            List<String> all = new ArrayList<>(lines);
            if (count > SHOWN) {
                all.add("... and " + (count - SHOWN) + " more problem(s)");
            }
            throw new TopologyException(all);
        }
    }
}
