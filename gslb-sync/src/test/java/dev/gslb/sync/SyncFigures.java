package dev.gslb.sync;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsKey;
import dev.gslb.probe.proximity.Path;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

/**
 * Prints the sync figures: the time for 100,000 path updates made on one instance to be held by
 * its peer on loopback, and the bytes per path update on the wire. Run: bash bench/sync-bench.sh
 */
public final class SyncFigures {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        java.nio.file.Path dir = Files.createTempDirectory("gslb-sync-bench");
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
             Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            Thread.sleep(500); // let the snapshots and first heartbeats pass
            long bytesBefore = a.sync.bytesSent();
            long now = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                a.table.recordPath(new LdnsKey(0, 0xFFFF_0000_0000L | (0x0A000000L + i)),
                        Path.of("CNC", 1000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "a"));
            }
            long made = System.nanoTime();
            Node.await(() -> b.table.size() >= n, Duration.ofSeconds(60));
            long done = System.nanoTime();
            long bytes = a.sync.bytesSent() - bytesBefore;
            System.out.printf("sync: %d path updates made in %.0f ms, held by the peer %.0f ms after the first (%d received)%n",
                    n, (made - start) / 1e6, (done - start) / 1e6, b.table.size());
            System.out.printf("sync: %.1f bytes per path update before TLS (%d bytes, frames and heartbeats included;"
                    + " TLS 1.3 adds 22 bytes per record of up to 16 KB)%n", bytes / (double) n, bytes);
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            int rounds = 200;
            long total = 0;
            for (int i = 0; i < rounds; i++) {
                long t0 = System.nanoTime();
                try (PeerSyncTest.Session s = PeerSyncTest.Session.open(a, bId,
                        new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null))) {
                    s.reply();
                    total += System.nanoTime() - t0;
                }
            }
            System.out.printf("sync: TLS 1.3 handshake (EC P-256, pinned) plus hello exchange: %.2f ms on average over %d"
                    + " connections on loopback%n", total / 1e6 / rounds, rounds);
        }
        System.exit(0);
    }
}
