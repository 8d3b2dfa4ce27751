package dev.gslb.dns.wideip;

import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.dns.method.Trace;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.AdminState;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Type;

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
        CnameTarget cname;

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

        /** The name a CNAME pool chose (outcome PICKED, no addresses), or null. */
        public CnameTarget cname() {
            return cname;
        }
    }

    /** The reusable objects of one thread's decisions. */
    public static final class Scratch {
        public final QueryContext query = new QueryContext();
        public final Candidates candidates = new Candidates();
        /** Available members whose link is over its limit: answered only when no other is left. */
        final Candidates spilled = new Candidates();

        public final Result result = new Result();
        final AnswerStatistics.Recent recent = new AnswerStatistics.Recent();
        final AnswerCounts.Recent counted = new AnswerCounts.Recent();
        final DecisionCounters.Recent decided = new DecisionCounters.Recent();

        /** The LDNS this thread last noted to the probes, and until when it needs no noting again. */
        private long notedHi;

        private long notedLo;
        private long notedUntil = Long.MIN_VALUE;

        /**
         * Whether {@code q}'s LDNS is to be noted: not when this thread noted it within the last
         * second. What noting does (its use, a re-measurement when its path grows old, asking the
         * peers) works in minutes, so a resolver asking thousands of times a second costs it once.
         */
        boolean noteLdns(QueryContext q) {
            long now = q.nowMillis();
            if (q.ldnsHi() == notedHi
                    && q.ldnsLo() == notedLo
                    && now < notedUntil
                    && now >= notedUntil - NOTE_EVERY_MILLIS) {
                return false;
            }
            notedHi = q.ldnsHi();
            notedLo = q.ldnsLo();
            notedUntil = now + NOTE_EVERY_MILLIS;
            return true;
        }
    }

    /** How often one thread notes an LDNS that keeps asking (see {@link Scratch#noteLdns}). */
    static final long NOTE_EVERY_MILLIS = 1000;

    private final Supplier<SiteState> site;
    private final ProbeRequests probes;
    private final MeterRegistry registry;
    private final DecisionCounters counters;
    private final PoolOrder poolOrder;
    private final PoolCandidates candidates;
    private final AnswerStatistics statistics;
    private final PersistenceTable persistence;
    private final WideIpRuntime wideIpRuntime = new WideIpRuntime();
    private volatile AnswerCounts answers = AnswerCounts.NOTHING;

    /** What decided an answer taken from the persistence table (a label for counters and traces). */
    public static final LoadBalancingMethod PERSISTENCE = new LoadBalancingMethod() {
        @Override
        public String name() {
            return "persistence";
        }

        @Override
        public Outcome decide(Candidates candidates, QueryContext query) {
            return Outcome.PASS;
        }
    };

    public WideIpResolver(Supplier<SiteState> site, ProbeRequests probes, MeterRegistry registry) {
        this(site, probes, registry, new AnswerStatistics(StatisticsSettings.DEFAULTS.maxWideIps()));
    }

    public WideIpResolver(
            Supplier<SiteState> site, ProbeRequests probes, MeterRegistry registry, AnswerStatistics statistics) {
        this(
                site,
                probes,
                registry,
                statistics,
                new PersistenceTable(dev.gslb.dns.method.StaticPersistence.Settings.DEFAULTS));
    }

    public WideIpResolver(
            Supplier<SiteState> site,
            ProbeRequests probes,
            MeterRegistry registry,
            AnswerStatistics statistics,
            PersistenceTable persistence) {
        this(site, probes, registry, statistics, persistence, TopologyTable::empty);
    }

    /** @param topology the topology in service: what {@code pool-method: topology} reads (the methods' own, {@link dev.gslb.dns.method.MethodRegistry.Services#topology}) */
    public WideIpResolver(
            Supplier<SiteState> site,
            ProbeRequests probes,
            MeterRegistry registry,
            AnswerStatistics statistics,
            PersistenceTable persistence,
            Supplier<TopologyTable> topology) {
        this.poolOrder = new PoolOrder(topology);
        this.persistence = persistence;
        this.site = site;
        this.probes = probes;
        this.registry = registry;
        this.statistics = statistics;
        this.counters = new DecisionCounters(registry);
        this.candidates = new PoolCandidates(registry);
    }

    public AnswerStatistics statistics() {
        return statistics;
    }

    public PersistenceTable persistence() {
        return persistence;
    }

    /**
     * Makes the answer counters of a configuration's wide IPs before it answers (at start and at
     * each reload, off the query path); the counters of wide IPs it no longer has go.
     */
    public synchronized void countAnswersOf(java.util.Collection<WideIp> wideIps) {
        AnswerCounts was = answers;
        AnswerCounts next = AnswerCounts.of(wideIps, statistics.maxWideIps(), was);
        next.register(registry, was);
        answers = next;
    }

    public Result resolve(WideIp w, Scratch s) {
        QueryContext q = s.query;
        boolean real = q.trace() == null; // an explanation is not a query: not counted, no probe
        boolean log = w.decisionLog() && real;
        if (q.trace() == null && w.usesPathMetrics() && s.noteLdns(q)) {
            // note the LDNS, measure it if nothing fresh is known; never waits
            probes.ldnsQueried(q.ldnsHi(), q.ldnsLo(), q.nowMillis());
        }
        if (log) {
            q.trace(new Trace());
        }
        Result r = s.result;
        SiteState state = site.get(); // one read: this decision sees one published state
        RuntimeState set = wideIpRuntime.of(w, state); // drained: persistence still answers, nothing new
        if (w.persistTtl() > 0 && !disabled(set) && persisted(w, q, state, r)) {
            // answered as before
        } else if (set != null) {
            if (q.trace() != null) {
                q.trace().note("runtime", "the wide IP is " + set.describe() + ": its failure behaviour answers");
            }
            fail(w, r);
        } else {
            decide(w, q, state, s.candidates, s.spilled, r);
            if (w.persistTtl() > 0
                    && real
                    && r.outcome == Outcome.PICKED
                    && r.count > 0
                    && r.pool != w.lastResortPool()) {
                int v4 = persistence.prefix(true);
                int v6 = persistence.prefix(false);
                persistence.record(
                        w.name(),
                        q.networkHi(v4, v6),
                        q.networkLo(v4, v6),
                        r.answers[0].name(),
                        q.nowMillis() + w.persistTtl() * 1000);
            }
        }
        if (real) { // an explanation's decision is not counted
            if (r.outcome != null) {
                counters.count(r.method, r.tier, s.decided);
            }
            statistics.record(w, r, q.nowMillis(), q.ldnsHi(), q.ldnsLo(), s.recent);
            answers.count(w, r, s.counted);
        }
        if (log) {
            decisions.info(
                    "{} {} from {}: {}",
                    w.name(),
                    org.xbill.DNS.Type.string(q.recordType()),
                    q.ldnsText(),
                    DecisionLine.of(r, q.trace()));
        }
        return r;
    }

    /**
     * Answers from the persistence table: the server this network was last answered with, while
     * it is still a member of one of the wide IP's pools, of the asked type, available and not
     * spilling. False when there is none (the methods decide).
     */
    private boolean persisted(WideIp w, QueryContext q, SiteState state, Result r) {
        int v4 = persistence.prefix(true);
        int v6 = persistence.prefix(false);
        String server = persistence.lookup(w.name(), q.networkHi(v4, v6), q.networkLo(v4, v6), q.nowMillis());
        if (server == null) {
            return false;
        }
        for (int p = 0; p < w.pools().size(); p++) {
            Pool pool = w.pools().get(p);
            if (p == w.lastResort() || disabled(state.pool(pool.name()))) {
                continue; // the last resort answers only when nothing else can: never persisted
            }
            for (int i = 0; i < pool.members().size(); i++) {
                VirtualServer vs = pool.members().get(i);
                if (vs.recordType() == q.recordType()
                        && vs.name().equals(server)
                        && state.at(vs).persistable() // drained keeps the networks persistence sends there
                        && !disabled(state.member(pool.name(), vs.name()))) {
                    r.outcome = Outcome.PICKED;
                    r.pool = pool;
                    r.tier = 0;
                    r.method = PERSISTENCE;
                    r.count = 1;
                    r.answers[0] = vs;
                    r.fallback = null;
                    r.failure = null;
                    r.cname = null;
                    r.ttl = pool.ttl() >= 0 ? pool.ttl() : w.ttl();
                    q.scopeAtLeast(v4, v6);
                    if (q.trace() != null) {
                        q.trace()
                                .note(
                                        "persistence",
                                        "this network was answered with " + server + " within " + w.persistTtl()
                                                + " s");
                    }
                    return true;
                }
            }
        }
        if (q.trace() != null) {
            q.trace().note("persistence", server + " is no longer available: the methods decide again");
        }
        return false;
    }

    private static boolean disabled(RuntimeState set) {
        return set != null && set.state() == AdminState.DISABLED;
    }

    /** Nothing decided: the wide IP's failure behaviour answers. */
    private static void fail(WideIp w, Result r) {
        r.outcome = null;
        r.cname = null;
        r.pool = null;
        r.method = null;
        r.count = 0;
        r.fallback = null;
        r.failure = w.failure();
        r.ttl = w.failure().ttl();
    }

    private Result decide(WideIp w, QueryContext q, SiteState state, Candidates c, Candidates spilled, Result r) {
        r.outcome = null;
        r.pool = null;
        r.method = null;
        r.count = 0;
        r.fallback = null;
        r.failure = null;
        r.cname = null;
        int n = w.pools().size();
        int first = poolOrder.first(w, q);
        for (int k = 0; k < n; k++) {
            int p = PoolOrder.at(w, first, k);
            if (p != w.lastResort() && tried(w, w.pools().get(p), q, state, c, spilled, r)) {
                return r;
            }
        }
        Pool last = w.lastResortPool();
        if (last != null) {
            if (q.trace() != null) {
                q.trace().note("last-resort", "every other pool gave nothing: " + last.name() + " is tried");
            }
            if (tried(w, last, q, state, c, spilled, r)) {
                return r;
            }
        }
        fail(w, r);
        return r;
    }

    /**
     * Tries one pool: true when it decided, or when its minimum of members up was not met and its
     * action is to fail (then {@code r} holds the wide IP's failure behaviour).
     */
    private boolean tried(
            WideIp w, Pool pool, QueryContext q, SiteState state, Candidates c, Candidates spilled, Result r) {
        RuntimeState poolSet = state.pool(pool.name());
        if (poolSet != null) { // disabled or drained: no new answers from it
            if (q.trace() != null) {
                q.trace().note("candidates", pool.name() + ": the pool is " + poolSet.describe());
            }
            return false;
        }
        if (!pool.answers(q.recordType())) {
            if (q.trace() != null) {
                q.trace()
                        .note(
                                "candidates",
                                pool.name() + ": no member has an " + Type.string(q.recordType())
                                        + " address: not tried");
            }
            return false;
        }
        q.pool(pool.name());
        int up = candidates.gather(pool, state, q, c, spilled);
        if (up < pool.minUpMembers()) {
            boolean failing = pool.minUpAction() == Pool.MinUpAction.FAIL;
            if (q.trace() != null) {
                q.trace()
                        .note(
                                "min-up-members",
                                pool.name() + ": " + up + " up, fewer than its min-up-members " + pool.minUpMembers()
                                        + (failing
                                                ? ": the wide IP's failure behaviour answers"
                                                : ": the next pool is tried"));
            }
            if (failing) {
                fail(w, r);
            }
            return failing;
        }
        return decideIn(w, pool, q, c, r);
    }

    /** Asks the pool's tiers in turn; true when one decided (then {@code r} holds the decision). */
    private boolean decideIn(WideIp w, Pool pool, QueryContext q, Candidates c, Result r) {
        for (int t = 0; t < pool.tiers().size(); t++) {
            LoadBalancingMethod m = pool.tiers().get(t);
            if (q.trace() != null) {
                q.trace().note("tier", pool.name() + " " + Pool.TIER_NAMES.get(t) + ": " + m.name());
            }
            CnameMembers names = pool.cnames();
            int chosen =
                    names == null ? -1 : names.choose(m, t, q, persistence.prefix(true), persistence.prefix(false));
            Outcome o = chosen >= 0 ? Outcome.PICKED : m.decide(c, q); // a CNAME pool's c is empty
            if (o == Outcome.PASS) {
                continue;
            }
            if (o == Outcome.FALLBACK_IP) {
                r.fallback = pool.fallbackFor(q.recordType());
                if (r.fallback == null) {
                    continue; // no fallback address of this family
                }
            }
            r.outcome = o;
            r.pool = pool;
            r.tier = t;
            r.method = m;
            r.ttl = pool.ttl() >= 0 ? pool.ttl() : w.ttl();
            if (chosen >= 0) {
                r.count = 0;
                r.cname = names.targets().get(chosen);
                if (q.trace() != null) {
                    q.trace().note("cname", pool.name() + ": a CNAME to " + r.cname.name());
                }
            } else if (o == Outcome.PICKED) {
                r.count = Math.min(pool.maxAnswers(), c.size());
                for (int i = 0; i < r.count; i++) {
                    r.answers[i] = c.get(i);
                }
            }
            return true;
        }
        return false;
    }
}
