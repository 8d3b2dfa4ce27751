package dev.gslb.sync;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.store.ProximityStore;
import dev.gslb.topology.Address;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Prints the scale of the LDNS state: bytes per proximity entry with two paths and with 20 data
 * centers, the heap a table of that many LDNS takes, and the time for a fresh peer to receive
 * the snapshots of two instances (another data center each) holding that many LDNS, so that it
 * ends with every LDNS and two paths each, and the time that fresh peer's store takes to write them.
 * Run: bash bench/scale-bench.sh [ldns]
 */
public final class ScaleFigures {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 3_000_000;
        String part = args.length > 1 ? args[1] : "";
        switch (part) {
            case "memory" -> {
                memory(n, 2);
                memory(n, 20);
            }
            case "snapshot" -> snapshot(n);
            case "store" -> store(n);
            default -> throw new IllegalArgumentException("which part: memory, snapshot or store, not " + part);
        }
        System.exit(0);
    }

    static long usedHeap() {
        return dev.gslb.probe.proximity.ProximityMemoryTest.usedHeap();
    }

    private static Address ldns(int i) {
        return new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + i));
    }

    /** A table of {@code n} IPv4 LDNS with a path from each of {@code dcs} data centers. */
    static void memory(int n, int dcs) throws InterruptedException {
        long before = usedHeap();
        ProximityTable t = new ProximityTable(ProximitySettings.DEFAULTS.withMaxLdns(n), Clock.systemUTC());
        long now = System.currentTimeMillis();
        Path[] paths = new Path[dcs];
        for (int i = 0; i < n; i++) {
            for (int d = 0; d < dcs; d++) {
                paths[d] = Path.of("DC" + d, 20_000 + (i + d) % 100_000, 10000, 0, ProbeProtocol.TCP, now, "gslb-" + d);
            }
            t.restore(ldns(i), LdnsEntry.of(paths, LdnsEntry.State.PROBED, ProbeProtocol.TCP, 0, now));
        }
        long after = usedHeap();
        System.out.printf(
                "memory: %,d LDNS with %d paths each: %.1f bytes per entry, heap %,.0f MB for the table%n",
                t.size(), dcs, (after - before) / (double) n, (after - before) / 1e6);
    }

    /** Two instances (CNC, CTT) hold {@code n} LDNS with their own paths; a fresh TEL instance joins both. */
    static void snapshot(int n) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("gslb-scale");
        int cap = n + 1000;
        try (Node a = node("a", "CNC", "127.0.0.2", dir, cap);
                Node c = node("c", "CTT", "127.0.0.4", dir, cap);
                Node b = node("b", "TEL", "127.0.0.3", dir, cap)) {
            for (Node x : List.of(a, c, b)) {
                x.scheduler.close(); // the LDNS here are made up (10/8): nothing may probe them
            }
            long now = System.currentTimeMillis();
            for (int i = 0; i < n; i++) {
                a.table.recordPath(
                        ldns(i), Path.of("CNC", 1000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "a"));
                c.table.recordPath(
                        ldns(i), Path.of("CTT", 2000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "c"));
            }
            // -Dgslb.bench.jfr=FILE: a flight recording of the snapshot alone (the filling above left out)
            String jfr = System.getProperty("gslb.bench.jfr");
            jdk.jfr.Recording recording = null;
            if (jfr != null) {
                recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                recording.setDestination(java.nio.file.Path.of(jfr));
                recording.start();
            }
            // Counted as b records them (one walk of the table at the end): a walk of 3,000,000 entries
            // every quarter second took a core from the peer being measured, and made the figure coarse.
            java.util.concurrent.atomic.LongAdder recorded = new java.util.concurrent.atomic.LongAdder();
            b.table.onPathRecorded((k, p) -> recorded.increment());
            long[] gcBefore = collections();
            long start = System.nanoTime();
            Node.pair(a, b);
            Node.pair(c, b);
            Awaits.until(
                    "two paths recorded for each LDNS on b", Duration.ofMinutes(10), () -> recorded.sum() >= 2L * n);
            long done = System.nanoTime();
            long deadline = done + Duration.ofMinutes(10).toNanos();
            while (withPaths(b.table, 2) < n) { // a path recorded twice (a second snapshot) counts twice
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("two paths in every entry on b: not within 10 minutes");
                }
                Thread.sleep(250);
                done = System.nanoTime();
            }
            if (recording != null) {
                recording.stop();
                recording.close();
            }
            long[] gc = collections();
            System.out.printf(
                    "snapshot: a fresh peer joined two instances of %,d LDNS each and held %,d LDNS with 2 paths"
                            + " after %.1f s (pairing included; %d collections, %.1f s)%n",
                    n, withPaths(b.table, 2), (done - start) / 1e9, gc[0] - gcBefore[0], (gc[1] - gcBefore[1]) / 1e3);
        }
    }

    /**
     * A fresh peer's store: {@code n} LDNS with two paths each, as a snapshot leaves them, written to
     * the H2 file by one flush (far more than the store remembers one by one: a walk of the table).
     */
    static void store(int n) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("gslb-scale-store");
        ProximityTable t = new ProximityTable(ProximitySettings.DEFAULTS.withMaxLdns(n + 1000), Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(dir.resolve("proximity"), t)) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < n; i++) {
                t.recordPath(ldns(i), Path.of("CNC", 1000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "a"));
                t.recordPath(ldns(i), Path.of("CTT", 2000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "c"));
            }
            long start = System.nanoTime();
            int rows = store.flush();
            double seconds = (System.nanoTime() - start) / 1e9;
            long old = 0;
            for (var pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getName().contains("Old Gen")) {
                    old = pool.getPeakUsage().getUsed();
                }
            }
            System.out.printf(
                    "store: a fresh peer's %,d LDNS written to its H2 store in %.1f s (%,d rows), old generation"
                            + " at most %,d MB (of a %,d MB heap), file %,d MB%n",
                    n,
                    seconds,
                    rows,
                    old >> 20,
                    Runtime.getRuntime().maxMemory() >> 20,
                    Files.size(dir.resolve("proximity.mv.db")) >> 20);
        }
        t = null;
        ProximityTable after = new ProximityTable(ProximitySettings.DEFAULTS.withMaxLdns(n + 1000), Clock.systemUTC());
        long start = System.nanoTime();
        try (ProximityStore ignored = new ProximityStore(dir.resolve("proximity"), after)) {
            System.out.printf(
                    "store: a restart read %,d LDNS back in %.1f s%n", after.size(), (System.nanoTime() - start) / 1e9);
        }
    }

    private static Node node(String name, String dc, String source, java.nio.file.Path dir, int cap) throws Exception {
        return Node.on(name, dc, source, dir, s -> s, cap, List.of(), RuntimeStateExchange.NONE);
    }

    /** The collections so far and their milliseconds, of every collector. */
    private static long[] collections() {
        long[] out = new long[2];
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            out[0] += gc.getCollectionCount();
            out[1] += gc.getCollectionTime();
        }
        return out;
    }

    private static int withPaths(ProximityTable t, int paths) {
        int n = 0;
        for (Map.Entry<Address, LdnsEntry> e : t.entries()) {
            if (e.getValue().pathCount() >= paths) {
                n++;
            }
        }
        return n;
    }
}
