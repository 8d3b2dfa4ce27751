package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
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
        // all n from this host at once: as many handshakes from one source as in all (a stranger's
        // TLS set-up takes a millisecond; the per-source cap of 8 would refuse most of them)
        try (Node a = Node.tweaked(
                        "a",
                        "CNC",
                        "127.0.0.2",
                        dir,
                        s -> PeerSyncTest.withLimits(s, Duration.ofSeconds(20), new SyncPortLimits(256, n, n, 4)));
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

    @Test
    void hostsHoldingConnectionsDoNotKeepThePairedPeerOut() throws Exception {
        try (Node a = Node.tweaked(
                        "a", "CNC", "127.0.0.2", dir, s -> PeerSyncTest.withHandshakes(s, Duration.ofSeconds(30), 64));
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            b.sync.close(); // the test reconnects as b, from b's address
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            List<Socket> held = new ArrayList<>();
            try {
                // one host, 1,000 connections that never finish their handshake
                double before = PeerSyncTest.refused(a);
                hold(a, InetAddress.ofLiteral("127.0.0.9"), 1000, held);
                reconnectBeside(a, bId, "one host holding 1000 connections", before + 1000 - 64);
                // then 100 hosts: the shared slots fill, the paired peer's address has its own
                double before2 = PeerSyncTest.refused(a);
                for (int h = 1; h <= 100; h++) {
                    hold(a, InetAddress.ofLiteral("127.0.1." + h), 8, held);
                }
                reconnectBeside(a, bId, "100 hosts holding 8 connections each", before2 + 800 - 64);
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    /** Once the connections over the limits are refused, b reconnects 24 times: every one gets in. */
    static void reconnectBeside(Node a, SyncIdentity bId, String attack, double refused) throws InterruptedException {
        Awaits.until(
                "the connections over the limits refused",
                Duration.ofSeconds(20),
                () -> PeerSyncTest.refused(a) >= refused);
        int ok = reconnects(a, bId, 24);
        System.out.printf("%s: the paired peer reconnected %d of 24%n", attack, ok);
        assertThat(ok).as("reconnects beside " + attack).isEqualTo(24);
    }

    /** Opens {@code n} connections from {@code from} that start a TLS record and stop there. */
    static void hold(Node to, InetAddress from, int n, List<Socket> held) throws IOException {
        InetSocketAddress at = to.sync.listening().getFirst();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.bind(new InetSocketAddress(from, 0));
            s.connect(at);
            try {
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01});
            } catch (IOException closedAtAccept) {
                // refused at once: still counted by the server
            }
            held.add(s);
        }
    }

    /** {@code n} authenticated hello exchanges as b, from b's address; how many got a's hello back. */
    static int reconnects(Node a, SyncIdentity bId, int n) {
        int ok = 0;
        Hello hello = new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null);
        for (int i = 0; i < n; i++) {
            try (Socket raw = new Socket()) {
                raw.bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.3"), 0));
                raw.connect(a.sync.listening().getFirst(), 3000);
                raw.setSoTimeout(5000);
                SSLSocket s = SyncIdentity.over(bId.context(new PinnedTrust(a.sync.fingerprint()::equals)), raw, true);
                s.startHandshake();
                var out = new DataOutputStream(s.getOutputStream());
                Wire.write(out, hello.type(), hello.encode());
                if (Hello.decode(Wire.read(new java.io.DataInputStream(s.getInputStream())))
                        .instance()
                        .equals("a")) {
                    ok++;
                }
            } catch (IOException e) {
                // not let in
            }
        }
        return ok;
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
