package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sync port as an attacker sees it, over real TCP and TLS on loopback: strangers with
 * throw-away certificates while a pairing waits, and hosts that hold many connections while the
 * paired peer reconnects. Each test prints its figure and asserts what must hold.
 */
class SyncPortAttackTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void headersClaimingHugeFramesBeforeTheJoinSecretCostNoHeap() throws Exception {
        int n = 64;
        try (Node a = Node.tweaked(
                        "a", "CNC", "127.0.0.2", dir, s -> PeerSyncTest.withHandshakes(s, Duration.ofSeconds(20), 64));
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            String token = a.sync.pair(List.of()).token(); // while it waits, any certificate passes TLS
            double refusedBefore = PeerSyncTest.refused(a);
            System.gc();
            long heapBefore = PeerSyncTest.usedHeap();
            List<SSLSocket> strangers = new ArrayList<>();
            long heapDuring;
            try {
                for (int i = 0; i < n; i++) {
                    SSLSocket s = stranger(a, SyncIdentity.generate("stranger" + i));
                    var out = new DataOutputStream(s.getOutputStream());
                    out.writeInt(Wire.MAX_CONFIG_FRAME); // a CONFIG frame of 64 MiB, then nothing
                    out.writeByte(Wire.Type.CONFIG.ordinal());
                    out.flush();
                    strangers.add(s);
                }
                try {
                    Awaits.until(
                            "all " + n + " refused",
                            Duration.ofSeconds(15),
                            () -> PeerSyncTest.refused(a) >= refusedBefore + n);
                } finally {
                    System.gc();
                    heapDuring = PeerSyncTest.usedHeap();
                    System.out.printf(
                            "pre-auth frame headers: %d connections claiming %d MiB each, heap %+d MiB while held,"
                                    + " %d refused%n",
                            n, Wire.MAX_CONFIG_FRAME >> 20, (heapDuring - heapBefore) >> 20, (long)
                                    (PeerSyncTest.refused(a) - refusedBefore));
                }
                for (SSLSocket s : strangers) {
                    assertThat(PeerSyncTest.drained(s))
                            .as("closed by the server")
                            .isTrue();
                }
            } finally {
                for (SSLSocket s : strangers) {
                    s.close();
                }
            }
            assertThat(heapDuring - heapBefore).as("heap growth").isLessThan(16L << 20);
            assertThat(b.sync.join(token))
                    .as("the pairing they waited beside is intact")
                    .isEqualTo("a");
        }
    }

    /** A TLS connection to {@code to} with a throw-away certificate, trusting only the node's. */
    static SSLSocket stranger(Node to, SyncIdentity as) throws IOException {
        InetSocketAddress at = to.sync.listening().getFirst();
        SSLSocket s = (SSLSocket) as.context(new PinnedTrust(to.sync.fingerprint()::equals))
                .getSocketFactory()
                .createSocket(at.getAddress(), at.getPort());
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }
}
