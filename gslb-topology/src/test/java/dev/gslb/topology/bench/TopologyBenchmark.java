package dev.gslb.topology.bench;

import dev.gslb.topology.TopologyMatch;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import dev.gslb.topology.load.LiveTopology;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Topology lookups with every list of topology-data/ loaded, and the load itself.
 * Run: bash bench/topology-bench.sh (prints ns/op and, with -prof gc, bytes allocated per op).
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TopologyBenchmark {
    static final Path DATA = Path.of(System.getProperty("gslb.topology.data", "topology-data/china-operator-ip"));
    static final List<TopologyRecord> RECORDS = List.of(
            new TopologyRecord("chinanet", "TEL", 100, "bench:1"), new TopologyRecord("unicom", "CNC", 100, "bench:2"));

    private TopologyTable table;
    private final int[] v4 = new int[4096];
    private final long[] v6hi = new long[4096];
    private final long[] v6lo = new long[4096];
    private int i;

    static LiveTopology loadAll() throws Exception {
        return new LiveTopology(new LiveTopology.Spec(List.of(DATA), RECORDS, Set.of("CNC", "TEL")));
    }

    @Setup
    public void setUp() throws Exception {
        table = loadAll().table();
        Random r = new Random(1);
        for (int k = 0; k < v4.length; k++) {
            // Half inside China's space (1.x-223.x spread), half anywhere: hits and misses both.
            v4[k] = k % 2 == 0 ? r.nextInt() : (r.nextInt(222) + 1) << 24 | r.nextInt(1 << 24);
            v6hi[k] = k % 2 == 0 ? 0x2400_0000_0000_0000L | (r.nextLong() >>> 8) : r.nextLong();
            v6lo[k] = r.nextLong();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public TopologyMatch lookupIpv4() {
        return table.lookupV4(v4[i++ & 4095]);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public TopologyMatch lookupIpv6() {
        int k = i++ & 4095;
        return table.lookupV6(v6hi[k], v6lo[k]);
    }

    /** Reading and building every list, as a reload does (first runs include JIT warm-up). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 0)
    @Measurement(iterations = 5)
    public LiveTopology loadAllLists() throws Exception {
        return loadAll();
    }
}
