package dev.gslb.dns.method;

/**
 * The shape of the methods where the candidate with the highest positive figure wins
 * (vs-capacity, vs-score). A figure of 0 or unknown (negative) is left out; when none is left the
 * method passes. Ties keep the candidates' order.
 */
abstract class HighestFigure implements LoadBalancingMethod {
    /** Candidate {@code i}'s figure: above 0 counts, 0 or below is left out. */
    abstract int figure(Candidates c, int i);

    /** What the trace says of a figure (and, for 0 or below, why it is left out). */
    abstract String describe(int figure);

    /** What no candidate had, when the method passes. */
    abstract String missing();

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        int best = -1;
        int highest = 0;
        for (int i = 0; i < c.size(); i++) {
            int f = figure(c, i);
            if (q.tracing()) {
                q.trace.note(name(), c.get(i).name() + ": " + describe(f));
            }
            if (f > highest) {
                best = i;
                highest = f;
            }
        }
        if (best < 0) {
            if (q.tracing()) {
                q.trace.note(name(), "no candidate has " + missing());
            }
            return Outcome.PASS;
        }
        return c.pick(best);
    }
}
