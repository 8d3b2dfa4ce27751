package dev.gslb.dns.method;

import java.util.concurrent.ThreadLocalRandom;

/** Any available member, each as likely (F5's random). No candidate: passes. */
public final class RandomChoice implements LoadBalancingMethod {
    @Override
    public String name() {
        return "random";
    }

    @Override
    public Outcome decide(Candidates c, QueryContext q) {
        return c.isEmpty() ? Outcome.PASS : c.pick(ThreadLocalRandom.current().nextInt(c.size()));
    }
}
