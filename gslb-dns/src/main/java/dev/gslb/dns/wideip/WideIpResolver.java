package dev.gslb.dns.wideip;

import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.dns.method.Trace;
import dev.gslb.dns.site.VirtualServer;
import dev.gslb.probe.schedule.ProbeRequests;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a wide IP's decision: pools in pool-method order; in each pool the available members of
 * the asked type are the candidates, and the tiers (preferred, alternate, fallback) are asked in
 * turn until one decides. When every pool passes, the wide IP's failure behaviour applies.
 * Allocation-free on the query path (the caller owns the reusable context, candidates, result).
 */
public final class WideIpResolver {
    private static final Logger decisions = LoggerFactory.getLogger("gslb.decisions");

    /** A decision: the outcome, where it was made, and what to answer. Reused per thread. */
    public static final class Result {
        Outcome outcome;
        Pool pool;
        int tier;
        LoadBalancingMethod method;
        final VirtualServer[] answers = new VirtualServer[16];
        int count;
        long ttl;
        InetAddress fallback;
        Failure failure;

        /** Null when every pool passed: then {@link #failure()} applies. */
        public Outcome outcome() {
            return outcome;
        }

        public Pool pool() {
            return pool;
        }

        public String tierName() {
            return pool == null ? null : Pool.TIER_NAMES.get(tier);
        }

        public LoadBalancingMethod method() {
            return method;
        }

        public int count() {
            return count;
        }

        public VirtualServer answer(int i) {
            return answers[i];
        }

        public long ttl() {
            return ttl;
        }

        public InetAddress fallback() {
            return fallback;
        }

        public Failure failure() {
            return failure;
        }
    }

    /** The reusable objects of one thread's decisions. */
    public static final class Scratch {
        public final QueryContext query = new QueryContext();
        public final Candidates candidates = new Candidates();
        /** Available members whose link is over its limit: answered only when no other is left. */
        final Candidates spilled = new Candidates();

        public final Result result = new Result();
    }

    private final MemberHealth health;
    private final ProbeRequests probes;
    private final MeterRegistry registry;
    private final ConcurrentHashMap<LoadBalancingMethod, Counter[]> counters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<WideIp, AtomicLong> poolRotation = new ConcurrentHashMap<>();
    private final Counter allOverLimit;
    private final AnswerStatistics statistics;

    public WideIpResolver(MemberHealth health, ProbeRequests probes, MeterRegistry registry) {
        this(health, probes, registry, new AnswerStatistics(StatisticsSettings.DEFAULTS.maxWideIps()));
    }

    public WideIpResolver(
            MemberHealth health, ProbeRequests probes, MeterRegistry registry, AnswerStatistics statistics) {
        this.health = health;
        this.probes = probes;
        this.registry = registry;
        this.statistics = statistics;
        this.allOverLimit = Counter.builder("link_all_over_limit")
                .description(
                        "Pool decisions where every available candidate's link was over its limit (answered anyway)")
                .register(registry);
    }

    public MemberHealth health() {
        return health;
    }

    public AnswerStatistics statistics() {
        return statistics;
    }

    public Result resolve(WideIp w, Scratch s) {
        QueryContext q = s.query;
        boolean real = q.trace() == null; // an explanation is not a query: not counted, no probe
        boolean log = w.decisionLog() && real;
        if (q.trace() == null && w.usesPathMetrics()) {
            probes.ldnsQueried(q.ldns()); // note the LDNS, measure it if nothing fresh is known; never waits
        }
        if (log) {
            q.trace(new Trace());
        }
        Result r = decide(w, q, s.candidates, s.spilled, s.result);
        if (real) {
            statistics.record(w, r, q.nowMillis());
        }
        if (log) {
            decisions.info(
                    "{} {} from {}: {}",
                    w.name(),
                    org.xbill.DNS.Type.string(q.recordType()),
                    q.ldns().getHostAddress(),
                    describe(r, q.trace()));
        }
        return r;
    }

    private Result decide(WideIp w, QueryContext q, Candidates c, Candidates spilled, Result r) {
        r.outcome = null;
        r.pool = null;
        r.method = null;
        r.count = 0;
        r.fallback = null;
        r.failure = null;
        int n = w.pools().size();
        int start = w.poolMethod() == WideIp.PoolMethod.ROUND_ROBIN
                ? (int) Math.floorMod(
                        poolRotation.computeIfAbsent(w, k -> new AtomicLong()).getAndIncrement(), n)
                : 0;
        for (int k = 0; k < n; k++) {
            Pool pool = w.pools().get((start + k) % n);
            c.reset();
            spilled.reset();
            for (VirtualServer vs : pool.members()) {
                if (vs.recordType() == q.recordType()) {
                    boolean up = health.available(vs);
                    String over = up ? health.overLimit(vs) : null;
                    if (over != null) {
                        spilled.add(vs);
                    } else if (up) {
                        c.add(vs);
                    }
                    if (q.trace() != null) {
                        q.trace()
                                .note(
                                        "candidates",
                                        pool.name() + ": " + vs.name() + " "
                                                + vs.address().getHostAddress() + " ("
                                                + vs.dataCenter().name() + ") "
                                                + (over != null ? over : up ? "available" : "unavailable"));
                    }
                }
            }
            if (c.isEmpty() && !spilled.isEmpty()) { // a full link is better than no answer
                for (int i = 0; i < spilled.size(); i++) {
                    c.add(spilled.get(i));
                }
                allOverLimit.increment();
                if (q.trace() != null) {
                    q.trace()
                            .note(
                                    "candidates",
                                    pool.name() + ": every available candidate's link is over its limit;"
                                            + " answering as if none were");
                }
            }
            for (int t = 0; t < pool.tiers().size(); t++) {
                LoadBalancingMethod m = pool.tiers().get(t);
                if (q.trace() != null) {
                    q.trace().note("tier", pool.name() + " " + Pool.TIER_NAMES.get(t) + ": " + m.name());
                }
                Outcome o = m.decide(c, q);
                if (o == Outcome.PASS) {
                    continue;
                }
                if (o == Outcome.FALLBACK_IP) {
                    r.fallback = fallbackOf(pool, q.recordType());
                    if (r.fallback == null) {
                        continue; // no fallback address of this family
                    }
                }
                r.outcome = o;
                r.pool = pool;
                r.tier = t;
                r.method = m;
                r.ttl = pool.ttl() >= 0 ? pool.ttl() : w.ttl();
                if (o == Outcome.PICKED) {
                    r.count = Math.min(pool.maxAnswers(), c.size());
                    for (int i = 0; i < r.count; i++) {
                        r.answers[i] = c.get(i);
                    }
                }
                counter(m, t).increment();
                return r;
            }
        }
        r.failure = w.failure();
        r.ttl = w.failure().ttl();
        return r;
    }

    private static InetAddress fallbackOf(Pool pool, int recordType) {
        for (InetAddress a : pool.fallbackIps()) {
            if ((a instanceof java.net.Inet4Address) == (recordType == org.xbill.DNS.Type.A)) {
                return a;
            }
        }
        return null;
    }

    private Counter counter(LoadBalancingMethod m, int tier) {
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

    /** One line for the decision log. */
    public static String describe(Result r, Trace trace) {
        StringBuilder sb = new StringBuilder();
        if (r.outcome() == null) {
            sb.append("no pool decided; failure behaviour ").append(r.failure().kind());
        } else {
            sb.append("pool ")
                    .append(r.pool().name())
                    .append(' ')
                    .append(r.tierName())
                    .append(' ')
                    .append(r.method().name())
                    .append(" -> ")
                    .append(r.outcome().name().toLowerCase(java.util.Locale.ROOT));
            for (int i = 0; i < r.count(); i++) {
                sb.append(' ')
                        .append(r.answer(i).name())
                        .append('=')
                        .append(r.answer(i).address().getHostAddress());
            }
            if (r.fallback() != null) {
                sb.append(' ').append(r.fallback().getHostAddress());
            }
        }
        if (trace != null) {
            trace.steps().stream()
                    .filter(st ->
                            !st.topic().equals("candidates") && !st.topic().equals("tier"))
                    .forEach(st ->
                            sb.append("; ").append(st.topic()).append(": ").append(st.detail()));
        }
        return sb.toString();
    }
}
