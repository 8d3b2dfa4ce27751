package dev.gslb.sync;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.topology.Address;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

/**
 * Prints the sync figures: the time for 100,000 path updates made on one instance to be held by
 * its peer on loopback, and the bytes per path update on the wire. Run: bash bench/sync-bench.sh
 */
public final class SyncFigures {
    static boolean heard(Node n) {
        return n.sync.status().stream().allMatch(s -> s.lastHeartbeat() != null);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        java.nio.file.Path dir = Files.createTempDirectory("gslb-sync-bench");
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            a.scheduler.close(); // the LDNS here are made up (10/8): nothing may probe them
            b.scheduler.close();
            Node.pair(a, b);
            Awaits.until( // the snapshots and first heartbeats passed
                    "each side has heard the other", Duration.ofSeconds(10), () -> heard(a) && heard(b));
            long bytesBefore = a.sync.bytesSent();
            long now = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                a.table.recordPath(
                        new Address(0, 0xFFFF_0000_0000L | (0x0A000000L + i)),
                        Path.of("CNC", 1000 + i % 50_000, 10000, 0, ProbeProtocol.DNS_DOT, now, "a"));
            }
            long made = System.nanoTime();
            Awaits.until("all entries on b", Duration.ofSeconds(60), () -> b.table.size() >= n);
            long done = System.nanoTime();
            long bytes = a.sync.bytesSent() - bytesBefore;
            System.out.printf(
                    "sync: %d path updates made in %.0f ms, held by the peer %.0f ms after the first (%d received)%n",
                    n, (made - start) / 1e6, (done - start) / 1e6, b.table.size());
            System.out.printf(
                    "sync: %.1f bytes per path update before TLS (%d bytes, frames and heartbeats included;"
                            + " TLS 1.3 adds 22 bytes per record of up to 16 KB)%n",
                    bytes / (double) n, bytes);
            b.sync.close(); // from here the figure speaks as b
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            javax.net.ssl.SSLSocketFactory tls =
                    bId.context(new PinnedTrust(a.sync.fingerprint()::equals)).getSocketFactory();
            var address = a.sync.listening().getFirst();
            Hello hello = new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null);
            int rounds = 500;
            long[] took = new long[rounds];
            for (int i = 0; i < rounds; i++) {
                long t0 = System.nanoTime();
                try (var s = (javax.net.ssl.SSLSocket) tls.createSocket(address.getAddress(), address.getPort())) {
                    s.setTcpNoDelay(true); // as PeerLink does: no Nagle wait between the handshake's flights
                    s.startHandshake();
                    var out = new java.io.DataOutputStream(s.getOutputStream());
                    Wire.write(out, hello.type(), hello.encode());
                    Hello.decode(Wire.read(new java.io.DataInputStream(s.getInputStream())));
                    took[i] = System.nanoTime() - t0;
                }
            }
            java.util.Arrays.sort(took, rounds / 5, rounds); // the first fifth warms the JIT up
            System.out.printf(
                    "sync: TLS 1.3 handshake (EC P-256, client certificate, pinned) plus hello exchange:"
                            + " median %.2f ms, p90 %.2f ms over %d connections on loopback (after %d to warm up)%n",
                    took[rounds / 5 + (rounds - rounds / 5) / 2] / 1e6,
                    took[rounds / 5 + (rounds - rounds / 5) * 9 / 10] / 1e6,
                    rounds - rounds / 5,
                    rounds / 5);
        }
        System.exit(0);
    }
}
