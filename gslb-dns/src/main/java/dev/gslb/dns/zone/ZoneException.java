package dev.gslb.dns.zone;

import java.util.List;
import java.util.stream.Collectors;

/** A zone file that cannot be served; lists every problem found, each with file and line. */
public final class ZoneException extends Exception {
    private final List<ZoneProblem> problems;

    public ZoneException(List<ZoneProblem> problems) {
        super(problems.stream().map(ZoneProblem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<ZoneProblem> problems() {
        return problems;
    }
}
