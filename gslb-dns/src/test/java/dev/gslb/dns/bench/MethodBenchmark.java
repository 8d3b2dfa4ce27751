package dev.gslb.dns.bench;

import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.Site;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * One full wide-IP decision whose pool prefers {@code method}, over four members in four data
 * centers, each with a measured load published by the site (connections, CPU, memory, traffic,
 * servers up) and a fresh path to each of 4,096 LDNS: the load-aware methods beside
 * lowest-round-trip-time in the same harness; and the method alone on the four candidates. Time
 * and allocation per decision (-prof gc).
 * Run (the method's cost alone: DecisionBenchmark measures the RTT chain at 1,000,000 LDNS):
 *   java -cp ... org.openjdk.jmh.Main MethodBenchmark -prof gc
 */
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MethodBenchmark {
    static final int LDNS = 4096;
    static final String[] CENTERS = {"CNC", "TEL", "BGP", "CMCC"};

    @Param({"lowest-round-trip-time", "least-connections", "dynamic-ratio", "load-band-random", "quality-of-service"})
    public String method;

    private SitePublisher site;
    private WideIpResolver resolver;
    private WideIp wideIp;
    private final WideIpResolver.Scratch scratch = new WideIpResolver.Scratch();
    private final Address[] ldns = new Address[LDNS];
    private int i;
    private VirtualServer[] servers;
    private LoadBalancingMethod alone;
    private final Candidates candidates = new Candidates();
    private final QueryContext query = new QueryContext();

    @Setup
    public void setUp() throws Exception {
        long now = System.currentTimeMillis();
        ProximityTable table = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        for (int k = 0; k < LDNS; k++) {
            ldns[k] = new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + k * 7));
            LdnsEntry e = LdnsEntry.probing(now);
            for (int d = 0; d < CENTERS.length; d++) {
                int rtt = 20_000 + (k * 31 + d * 17_000) % 60_000;
                e = e.withPath(Path.of(CENTERS[d], rtt, 10000, 0, ProbeProtocol.DNS_DOT, now, "bench"));
            }
            table.restore(ldns[k], e);
        }
        List<VirtualServer> members = new ArrayList<>();
        for (int d = 0; d < CENTERS.length; d++) {
            members.add(new VirtualServer(
                            "vs" + d,
                            InetAddress.ofLiteral("198.18." + d + ".10"),
                            new DataCenter(CENTERS[d]),
                            1 + d % 2,
                            0,
                            null,
                            d)
                    .withScore(50 + d));
        }
        site = new SitePublisher(new Site(members, List.of()), true, Clock.systemUTC());
        for (int d = 0; d < members.size(); d++) {
            site.localLoad(
                    members.get(d).name(),
                    new ServerLoad(
                            800 + 300 * d,
                            30 + 10 * d,
                            40 + 5 * d,
                            1.5,
                            2_000_000 + 100_000 * d,
                            600 + 50 * d,
                            4 - d,
                            null,
                            now,
                            CENTERS[d]));
        }
        TopologyTable topology = TopologyTable.build(List.of(), List.of(), Set.of(CENTERS));
        MethodRegistry methods = new MethodRegistry(new MethodRegistry.Services(
                table, () -> topology, ProximitySettings.DEFAULTS.pathTtl().toMillis(), MethodSettings.DEFAULTS));
        resolver = new WideIpResolver(site::state, ProbeRequests.NONE, new SimpleMeterRegistry());
        Pool pool = new Pool(
                "www",
                members,
                List.of(methods.create(method), methods.create("global-availability")),
                1,
                -1,
                List.of());
        servers = members.toArray(VirtualServer[]::new);
        alone = methods.create(method);
        wideIp = new WideIp(Name.fromString("www.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
        WideIpResolver.Result r = decide();
        if (r.count() != 1) {
            throw new IllegalStateException(method + " gave no answer");
        }
    }

    private WideIpResolver.Result decide() {
        Address a = ldns[i++ & (LDNS - 1)];
        scratch.query.set(a.hi(), a.lo(), Type.A, System.currentTimeMillis());
        return resolver.resolve(wideIp, scratch);
    }

    @Benchmark
    public WideIpResolver.Result decision() {
        return decide();
    }

    /** The method alone on the four candidates as the site publishes them (no pool, statistics or answer). */
    @Benchmark
    public Outcome methodAlone() {
        SiteState s = site.state();
        candidates.reset();
        for (VirtualServer vs : servers) {
            candidates.add(vs, s.at(vs));
        }
        Address a = ldns[i++ & (LDNS - 1)];
        query.set(a.hi(), a.lo(), Type.A, System.currentTimeMillis());
        return alone.decide(candidates, query);
    }

    @TearDown
    public void tearDown() {
        site.close();
    }
}
