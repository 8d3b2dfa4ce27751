package dev.gslb.dns.method;

/** The first available member in configured order (the source's third step; disaster recovery). */
public final class GlobalAvailability implements LoadBalancingMethod {
    @Override
    public String name() {
        return "global-availability";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        return c.isEmpty() ? Outcome.PASS : c.pick(0);
    }
}
