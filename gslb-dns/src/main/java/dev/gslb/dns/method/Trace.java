package dev.gslb.dns.method;

import java.util.ArrayList;
import java.util.List;

/**
 * What `gslb resolve --explain` and the decision log show: each step of a decision (the
 * candidates and their health, the tier tried, what a method saw and why it passed or chose).
 * Only built when asked for; the query path passes none.
 */
public final class Trace {
    /** {@code topic}: "candidates", "tier", or the method's name. */
    public record Step(String topic, String detail) {}

    private final List<Step> steps = new ArrayList<>();

    public void note(String topic, String detail) {
        steps.add(new Step(topic, detail));
    }

    public List<Step> steps() {
        return steps;
    }
}
