package dev.gslb.dns.wideip;

import dev.gslb.dns.method.LoadBalancingMethod;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code lb_decisions} counters, by the method and tier that decided: made the first time a
 * method decides, then read lock-free.
 */
final class DecisionCounters {
    private final MeterRegistry registry;
    private final ConcurrentHashMap<LoadBalancingMethod, Counter[]> counters = new ConcurrentHashMap<>();

    DecisionCounters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * One thread's last counter, so that the same method and tier deciding again costs no map
     * lookup (compared by identity). Owned by one thread: no race.
     */
    static final class Recent {
        private DecisionCounters owner;
        private LoadBalancingMethod method;
        private int tier;
        private Counter counter;
    }

    /** Counts a decision of {@code m} in {@code tier}, through the calling thread's {@code recent}. */
    void count(LoadBalancingMethod m, int tier, Recent recent) {
        if (recent.owner != this || recent.method != m || recent.tier != tier) {
            recent.owner = this;
            recent.method = m;
            recent.tier = tier;
            recent.counter = of(m, tier);
        }
        recent.counter.increment();
    }

    private Counter of(LoadBalancingMethod m, int tier) {
        Counter[] byTier = counters.get(m);
        if (byTier == null) {
            byTier = new Counter[3];
            for (int t = 0; t < 3; t++) {
                byTier[t] = Counter.builder("lb_decisions")
                        .tag("method", m.name())
                        .tag("tier", Pool.TIER_NAMES.get(t))
                        .description("Wide-IP decisions, by the method and tier that decided")
                        .register(registry);
            }
            counters.putIfAbsent(m, byTier);
        }
        return byTier[tier];
    }
}
