package dev.gslb.topology;

import java.util.List;

/** Topology input that must not reach service; each line names file, line and what is wrong. */
public final class TopologyException extends Exception {
    private final List<String> problems;

    public TopologyException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
