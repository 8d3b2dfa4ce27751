package dev.gslb.dns.bench;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.load.LiveTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * One full wide-IP decision (the source's chain RTT -> topology -> global availability, through
 * the real scheduler's LDNS bookkeeping) with 1,000,000 LDNS in the proximity table and every
 * shipped ISP list loaded. rttHit: every LDNS has fresh CNC and TEL paths; topologyFallThrough:
 * LDNS without entries in China Telecom space. Run: bash bench/decision-bench.sh
 */
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx3g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DecisionBenchmark {
    static final int LDNS = 1_000_000;

    private ProbeScheduler scheduler;
    private WideIpResolver resolver;
    private WideIp wideIp;
    private final WideIpResolver.Scratch scratch = new WideIpResolver.Scratch();
    private final InetAddress[] known = new InetAddress[4096];
    private final InetAddress[] unknown = new InetAddress[4096];
    private int i;

    @Setup
    public void setUp() throws Exception {
        ProximityTable table = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        long now = System.currentTimeMillis();
        for (int k = 0; k < LDNS; k++) {
            Address key = new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + k));
            table.restore(
                    key,
                    LdnsEntry.probing(now)
                            .withPath(Path.of("CNC", 20_000 + k % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "cnc"))
                            .withPath(
                                    Path.of("TEL", 35_000 + k % 30_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "tel")));
        }
        LiveTopology topology = new LiveTopology(new LiveTopology.Spec(
                List.of(java.nio.file.Path.of(
                        System.getProperty("gslb.topology.data", "topology-data/china-operator-ip"))),
                List.of(
                        new TopologyRecord("chinanet", "TEL", 100, "bench"),
                        new TopologyRecord("unicom", "CNC", 100, "bench")),
                Set.of("CNC", "TEL")));
        ProbeSettings d = ProbeSettings.defaults();
        scheduler = new ProbeScheduler(table, d, "CNC", "bench", List.of(), new SimpleMeterRegistry());
        resolver = new WideIpResolver(() -> SiteState.ALL_AVAILABLE, scheduler, new SimpleMeterRegistry());
        MethodRegistry methods = new MethodRegistry(new MethodRegistry.Services(
                table,
                topology::table,
                ProximitySettings.DEFAULTS.pathTtl().toMillis(),
                dev.gslb.dns.method.MethodSettings.DEFAULTS));
        DataCenter cnc = new DataCenter("CNC");
        DataCenter tel = new DataCenter("TEL");
        Pool pool = new Pool(
                "www",
                List.of(
                        new VirtualServer("vs1", InetAddress.ofLiteral("202.106.83.177"), cnc),
                        new VirtualServer("vs2", InetAddress.ofLiteral("219.17.66.100"), tel)),
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                1,
                -1,
                List.of());
        wideIp = new WideIp(Name.fromString("www.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
        Random r = new Random(3);
        for (int k = 0; k < known.length; k++) {
            int v = 0x0A000000 + r.nextInt(LDNS);
            known[k] = InetAddress.getByAddress(
                    new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
            unknown[k] = InetAddress.ofLiteral("61.136." + r.nextInt(128, 256) + "." + r.nextInt(256)); // chinanet
        }
        // Unknown LDNS get an entry (PROBING) on their first query, as in service.
        for (InetAddress a : unknown) {
            resolve(a);
        }
    }

    private WideIpResolver.Result resolve(InetAddress ldns) {
        scratch.query.set(dev.gslb.topology.Address.of(ldns), Type.A, System.currentTimeMillis());
        return resolver.resolve(wideIp, scratch);
    }

    @Benchmark
    public WideIpResolver.Result rttHit() {
        return resolve(known[i++ & 4095]);
    }

    @Benchmark
    public WideIpResolver.Result topologyFallThrough() {
        return resolve(unknown[i++ & 4095]);
    }

    @TearDown
    public void tearDown() {
        scheduler.close();
    }
}
