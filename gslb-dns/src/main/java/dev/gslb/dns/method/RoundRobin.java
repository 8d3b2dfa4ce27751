package dev.gslb.dns.method;

import java.util.concurrent.atomic.AtomicLong;

/** Each available member in turn. */
public final class RoundRobin implements LoadBalancingMethod {
    private final AtomicLong next = new AtomicLong();

    @Override
    public String name() {
        return "round-robin";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        return c.isEmpty() ? Outcome.PASS : c.pick((int) Math.floorMod(next.getAndIncrement(), c.size()));
    }
}
