package dev.gslb.dns.method;

import java.util.concurrent.atomic.AtomicLong;

/** Members answered in proportion to their ratio (weight); ratio 0 is never chosen. */
public final class Ratio implements LoadBalancingMethod {
    private final AtomicLong next = new AtomicLong();

    @Override
    public String name() {
        return "ratio";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        long total = 0;
        for (int i = 0; i < c.size(); i++) {
            total += c.get(i).ratio();
        }
        if (total == 0) {
            return Outcome.PASS;
        }
        long n = Math.floorMod(next.getAndIncrement(), total);
        for (int i = 0; i < c.size(); i++) {
            n -= c.get(i).ratio();
            if (n < 0) {
                return c.pick(i);
            }
        }
        return Outcome.PASS;
    }
}
