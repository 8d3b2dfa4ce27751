package dev.gslb.sync;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.topology.Address;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Prints how path updates converge across a full mesh of five instances on loopback (127.0.0.2-6,
 * five data centers, every pair joined): each measures its own path to the same LDNS, 100,000
 * updates in all, until every instance holds every LDNS with all five paths. Then bytes sent per
 * instance and CPU per instance (the process's CPU time over the five, as they share one JVM), and
 * what that gives for twenty data centers: each instance sends its own updates to 19 peers and
 * takes in theirs. Run: bash bench/mesh-bench.sh [updates]
 */
public final class MeshFigures {
    private static final String[] DATA_CENTERS = {"CNC", "TEL", "CMCC", "BGP", "CTT"};

    public static void main(String[] args) throws Exception {
        int updates = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int n = DATA_CENTERS.length;
        int ldns = updates / n;
        java.nio.file.Path dir = Files.createTempDirectory("gslb-mesh-bench");
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Node node = new Node("m" + i, DATA_CENTERS[i], "127.0.0." + (2 + i), 9, dir, List.of());
                node.scheduler.close(); // the LDNS here are made up (10/8): nothing may probe them
                nodes.add(node);
            }
            long pairStart = System.nanoTime();
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    Node.pair(nodes.get(i), nodes.get(j));
                }
            }
            System.out.printf(
                    "mesh: %d instances, %d pairings, joined in %.1f s%n",
                    n, n * (n - 1) / 2, (System.nanoTime() - pairStart) / 1e9);
            Awaits.until(
                    "every instance has heard every peer",
                    Duration.ofSeconds(30),
                    () -> nodes.stream().allMatch(SyncFigures::heard));
            long[] sentBefore =
                    nodes.stream().mapToLong(x -> x.sync.bytesSent()).toArray();
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            long now = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int k = 0; k < ldns; k++) { // the instances take turns, as probes finishing do
                Address a = new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + k));
                for (int i = 0; i < n; i++) {
                    Node node = nodes.get(i);
                    node.table.recordPath(
                            a,
                            Path.of(node.dc, 1000 + (k + i) % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, node.name));
                }
            }
            long made = System.nanoTime();
            Awaits.until(
                    "every instance holds every LDNS with all paths",
                    Duration.ofSeconds(300),
                    () -> nodes.stream().allMatch(x -> paths(x) >= (long) ldns * n));
            long done = System.nanoTime();
            long cpu = os.getProcessCpuTime() - cpuBefore;
            long sent = 0;
            for (int i = 0; i < n; i++) {
                sent += nodes.get(i).sync.bytesSent() - sentBefore[i];
            }
            double perInstance = sent / (double) n;
            double perUpdatePerPeer = sent / (double) updates / (n - 1);
            System.out.printf(
                    "mesh: %d path updates (%d LDNS x %d data centers) made in %.0f ms; every instance held all %d"
                            + " paths %.0f ms after the first%n",
                    updates, ldns, n, (made - start) / 1e6, (long) ldns * n, (done - start) / 1e6);
            System.out.printf(
                    "mesh: sent per instance %.1f MB (%.1f bytes per update per peer, before TLS; heartbeats"
                            + " included); CPU per instance %.2f s (the JVM's %.2f s over %d, making the updates"
                            + " included)%n",
                    perInstance / 1e6, perUpdatePerPeer, cpu / 1e9 / n, cpu / 1e9, n);
            int big = 20;
            double ownUpdates = updates / (double) n;
            System.out.printf(
                    "mesh: at %d data centers, an instance making %.0f updates sends them to %d peers (%.1f MB) and"
                            + " takes in %.0f (%.1f MB): about %.1fx this mesh's bytes and CPU per instance%n",
                    big,
                    ownUpdates,
                    big - 1,
                    ownUpdates * (big - 1) * perUpdatePerPeer / 1e6,
                    ownUpdates * (big - 1),
                    ownUpdates * (big - 1) * perUpdatePerPeer / 1e6,
                    (big - 1) / (double) (n - 1));
        } finally {
            nodes.forEach(Node::close);
        }
        System.exit(0);
    }

    /** Every path an instance holds. */
    private static long paths(Node node) {
        LongAdder count = new LongAdder();
        node.table.forEachEntry(e -> count.add(e.pathCount()));
        return count.sum();
    }
}
