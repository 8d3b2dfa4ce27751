package dev.gslb.dns.method;

/**
 * The virtual server with the highest operator-set score (its {@code score:}, 1-100) wins (F5's
 * virtual-server-score). A server without a score (0) is left out; none scored: passes. Ties keep
 * the candidates' order.
 */
public final class VsScore extends HighestFigure {
    @Override
    public String name() {
        return "vs-score";
    }

    @Override
    int figure(Candidates c, int i) {
        return c.get(i).score();
    }

    @Override
    String describe(int score) {
        return score == 0 ? "no score, left out" : "score " + score;
    }

    @Override
    String missing() {
        return "a score";
    }
}
