package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.DelayingResponder;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.health.HealthState;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.proximity.LdnsKey;
import dev.gslb.probe.proximity.Path;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerSyncTest {
    static final InetAddress LDNS = InetAddress.ofLiteral("127.0.0.50");

    @TempDir
    java.nio.file.Path dir;

    @Test
    void theSourceFlowGivesBothInstancesBothPaths() throws Exception {
        InetAddress cncSource = InetAddress.ofLiteral("127.0.0.2");
        InetAddress telSource = InetAddress.ofLiteral("127.0.0.3");
        try (DelayingResponder ldns = new DelayingResponder(LDNS).delay(cncSource, Duration.ofMillis(60))
                .delay(telSource, Duration.ofMillis(10));
             Node a = new Node("gslb-cnc", "CNC", "127.0.0.2", ldns.port(), dir, List.of());
             Node b = new Node("gslb-tel", "TEL", "127.0.0.3", ldns.port(), dir, List.of())) {
            Node.pair(a, b);
            long start = System.nanoTime();
            a.sync.probeRequests().ldnsQueried(LDNS); // A meets an LDNS it has no entry for; answers, never waits
            Node.await(() -> a.hasPath("127.0.0.50", "CNC") && a.hasPath("127.0.0.50", "TEL")
                    && b.hasPath("127.0.0.50", "CNC") && b.hasPath("127.0.0.50", "TEL"), Duration.ofSeconds(5));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("source flow: both instances hold both paths %.2f s after the first query%n", seconds);
            for (Node n : List.of(a, b)) {
                assertThat(n.entry("127.0.0.50").path("CNC").rttMicros()).as(n.name).isGreaterThanOrEqualTo(60_000);
                assertThat(n.entry("127.0.0.50").path("TEL").rttMicros()).as(n.name).isBetween(10_000, 59_000);
                assertThat(n.entry("127.0.0.50").path("TEL").measuredBy()).isEqualTo("gslb-tel");
            }
            // probe time (3 samples at 60 ms) plus one second
            assertThat(seconds).isLessThan(0.18 + 1.0 + 0.5);
            assertThat(b.sync.status().getFirst().itemsReceived()).isGreaterThan(0);
        }
    }

    @Test
    void threeInstancesConvergeAndAPathHasOneWriter() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
             Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of());
             Node c = new Node("c", "CMCC", "127.0.0.4", 9, dir, List.of())) {
            Node.pair(a, b);
            Node.pair(a, c);
            Node.pair(b, c);
            long now = System.currentTimeMillis();
            LdnsKey k = LdnsKey.parse("198.18.7.7");
            a.table.recordPath(k, Path.of("CNC", 1000, 10000, 0, ProbeProtocol.TCP, now, "a"));
            b.table.recordPath(k, Path.of("TEL", 2000, 10000, 0, ProbeProtocol.TCP, now, "b"));
            c.table.recordPath(k, Path.of("CMCC", 3000, 10000, 0, ProbeProtocol.TCP, now, "c"));
            for (Node n : List.of(a, b, c)) {
                Node.await(() -> n.entry("198.18.7.7").paths().length == 3, Duration.ofSeconds(5));
                assertThat(n.entry("198.18.7.7").pathList()).extracting(Path::dataCenter)
                        .containsExactlyInAnyOrder("CNC", "TEL", "CMCC");
            }
            // b claims a CNC path: only CNC's instance writes CNC paths, so nobody takes it
            b.table.recordPath(k, Path.of("CNC", 1, 10000, 0, ProbeProtocol.TCP, now + 1000, "b"));
            Thread.sleep(500);
            assertThat(a.entry("198.18.7.7").path("CNC").rttMicros()).isEqualTo(1000);
            assertThat(c.entry("198.18.7.7").path("CNC").rttMicros()).isEqualTo(1000);
        }
    }

    @Test
    void aPeerWithoutTheKeyATamperedOrReplayedFrameAndAnotherVersionAreRefused() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
             Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            var address = a.sync.listening().getFirst();
            byte[] key = PeersFile.read(b.peersFile).getFirst().key();
            double before = a.registry.get("sync_frames_refused").counter().count();

            // 1. an intruder who knows the name but not the key
            byte[] wrong = new byte[32];
            try (Socket s = new Socket(address.getAddress(), address.getPort())) {
                var out = new DataOutputStream(s.getOutputStream());
                Wire.write(out, Wire.mac(wrong), Wire.Type.HELLO, 0,
                        new Hello(1, "b", "TEL", List.of(), new byte[16]).encode());
                assertThat(s.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
            }
            // 2. with the key, a valid session, then one flipped byte
            try (Session s = Session.open(address, key)) {
                byte[] body = Item.encode(Wire.Type.PATHS, List.of(new Item.PathItem(LdnsKey.parse("198.18.8.8"),
                        Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, System.currentTimeMillis(), "b"), 60_000)), "TEL", "b");
                byte[] mac = Wire.macOf(s.send, Wire.Type.PATHS, 1, body);
                body[body.length - 1] ^= 1;
                s.raw(Wire.Type.PATHS, 1, body, mac);
                assertThat(s.closed()).isTrue();
            }
            // 3. a frame that was valid once, sent again
            try (Session s = Session.open(address, key)) {
                byte[] body = Item.encode(Wire.Type.PATHS, List.of(new Item.PathItem(LdnsKey.parse("198.18.9.9"),
                        Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, System.currentTimeMillis(), "b"), 60_000)), "TEL", "b");
                byte[] mac = Wire.macOf(s.send, Wire.Type.PATHS, 1, body);
                s.raw(Wire.Type.PATHS, 1, body, mac);
                Node.await(() -> a.hasPath("198.18.9.9", "TEL"), Duration.ofSeconds(2));
                assertThat(a.hasPath("198.18.9.9", "TEL")).as("the genuine frame is taken").isTrue();
                s.raw(Wire.Type.PATHS, 1, body, mac);
                assertThat(s.closed()).as("the replay ends the session").isTrue();
            }
            // 4. the right key, but a protocol version this instance does not speak
            try (Socket s = new Socket(address.getAddress(), address.getPort())) {
                var out = new DataOutputStream(s.getOutputStream());
                Wire.write(out, Wire.mac(key), Wire.Type.HELLO, 0, new Hello(2, "b", "TEL", List.of(), new byte[16]).encode());
                assertThat(s.getInputStream().read()).as("refused: incompatible version").isEqualTo(-1);
            }
            Node.await(() -> a.registry.get("sync_frames_refused").counter().count() >= before + 4, Duration.ofSeconds(2));
            assertThat(a.registry.get("sync_frames_refused").counter().count()).isEqualTo(before + 4);
            assertThat(a.connectedTo("b")).as("the real peer stays connected").isTrue();

            assertThat(a.sync.remove("b")).isTrue();
            assertThat(a.sync.status()).isEmpty();
            assertThat(PeersFile.read(a.peersFile)).as("the key is forgotten").isEmpty();
            assertThat(a.sync.remove("b")).isFalse();
        }
    }

    /** A test client doing the dialer's side of the handshake by hand. */
    record Session(Socket socket, DataOutputStream out, DataInputStream in, javax.crypto.Mac send) implements AutoCloseable {
        static Session open(java.net.InetSocketAddress address, byte[] key) throws Exception {
            Socket s = new Socket(address.getAddress(), address.getPort());
            s.setSoTimeout(3000);
            var out = new DataOutputStream(s.getOutputStream());
            var in = new DataInputStream(s.getInputStream());
            byte[] nonce = new byte[16];
            new java.security.SecureRandom().nextBytes(nonce);
            Wire.write(out, Wire.mac(key), Wire.Type.HELLO, 0, new Hello(1, "b", "TEL", List.of(), nonce).encode());
            Hello ack = Hello.decode(Wire.read(in).body());
            return new Session(s, out, in, Wire.mac(Wire.sessionKey(key, nonce, ack.nonce(), true)));
        }

        void raw(Wire.Type type, long seq, byte[] body, byte[] mac) throws Exception {
            out.writeInt(1 + 8 + body.length + mac.length);
            out.writeByte(type.ordinal());
            out.writeLong(seq);
            out.write(body);
            out.write(mac);
            out.flush();
        }

        boolean closed() {
            try {
                while (true) { // heartbeats may come first; the end of the stream is what counts
                    Wire.read(in);
                }
            } catch (java.io.EOFException e) {
                return true;
            } catch (Exception e) {
                return e instanceof java.net.SocketException;
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    @Test
    void aRestartedPeerResyncsFromASnapshotAndExpiredItemsAreDropped() throws Exception {
        Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
        Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of());
        try {
            Node.pair(a, b);
            b.close();
            long now = System.currentTimeMillis();
            for (int i = 0; i < 100; i++) {
                a.table.recordPath(LdnsKey.parse("198.18.20." + i), Path.of("CNC", 100 + i, 10000, 0, ProbeProtocol.UDP, now, "a"));
            }
            LdnsKey old = LdnsKey.parse("198.18.21.1");
            a.table.recordPath(old, Path.of("CNC", 1, 10000, 0, ProbeProtocol.UDP, now - 3_000_000, "a")); // past the TTL
            b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of()); // same peers file: reconnects by itself
            Node b2 = b;
            Node.await(() -> b2.table.size() >= 100, Duration.ofSeconds(10));
            assertThat(b.table.size()).as("all fresh paths, none expired").isEqualTo(100);
            assertThat(b.entry("198.18.21.1")).isNull();
            a.table.recordPath(LdnsKey.parse("198.18.22.1"), Path.of("CNC", 7, 10000, 0, ProbeProtocol.UDP, now, "a"));
            Node.await(() -> b2.hasPath("198.18.22.1", "CNC"), Duration.ofSeconds(5));
            assertThat(b.hasPath("198.18.22.1", "CNC")).as("then deltas").isTrue();
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void expiredItemsAreDroppedOnReceiptAndOnExpiry() throws Exception {
        var shortTtl = Duration.ofSeconds(2);
        var loop = (java.util.function.Function<String, List<java.net.InetSocketAddress>>) ip ->
                List.of(new java.net.InetSocketAddress(InetAddress.ofLiteral(ip), 0));
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of(), loop.apply("127.0.0.2"), shortTtl);
             Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of(), loop.apply("127.0.0.3"), shortTtl)) {
            Node.pair(a, b);
            long now = System.currentTimeMillis();
            b.table.recordPath(LdnsKey.parse("198.18.30.1"), Path.of("TEL", 9, 10000, 0, ProbeProtocol.UDP, now, "b"));
            Node.await(() -> a.hasPath("198.18.30.1", "TEL"), Duration.ofSeconds(3));
            assertThat(a.hasPath("198.18.30.1", "TEL")).as("received while fresh").isTrue();
            Node.await(() -> !a.hasPath("198.18.30.1", "TEL"), Duration.ofSeconds(5));
            assertThat(a.hasPath("198.18.30.1", "TEL")).as("dropped when it expired").isFalse();

            byte[] key = PeersFile.read(b.peersFile).getFirst().key();
            try (Session s = Session.open(a.sync.listening().getFirst(), key)) {
                byte[] body = Item.encode(Wire.Type.PATHS, List.of(new Item.PathItem(LdnsKey.parse("198.18.30.2"),
                        Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, now - 10_000, "b"), 2_000)), "TEL", "b");
                s.raw(Wire.Type.PATHS, 1, body, Wire.macOf(s.send, Wire.Type.PATHS, 1, body));
                Thread.sleep(300);
                assertThat(a.entry("198.18.30.2")).as("already expired when it arrived").isNull();
            }
        }
    }

    @Test
    void aPeerHealthViewFillsUnknownButNeverOverridesALocalDown() throws Exception {
        java.nio.file.Path up = dir.resolve("up.sh");
        Files.writeString(up, "#!/bin/sh\nexit 0\n");
        up.toFile().setExecutable(true);
        java.nio.file.Path down = dir.resolve("down.sh");
        Files.writeString(down, "#!/bin/sh\nexit 1\n");
        down.toFile().setExecutable(true);
        var fast = Duration.ofMillis(100);
        HealthTarget seenUpByA = new HealthTarget("vs1", InetAddress.ofLiteral("127.0.1.1"), "CNC", List.of(
                new MonitorSpec("x", new dev.gslb.probe.health.ExternalCheck(List.of(up.toString())), fast, fast, 1, 1)));
        HealthTarget seenDownByB = new HealthTarget("vs1", InetAddress.ofLiteral("127.0.1.1"), "CNC", List.of(
                new MonitorSpec("x", new dev.gslb.probe.health.ExternalCheck(List.of(down.toString())), fast, fast, 1, 1)));
        HealthTarget unmonitored = new HealthTarget("vs1", InetAddress.ofLiteral("127.0.1.1"), "CNC", List.of());
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of(seenUpByA));
             Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of(seenDownByB));
             Node c = new Node("c", "BGP", "127.0.0.4", 9, dir, List.of(unmonitored))) {
            a.health.start();
            b.health.start();
            Node.pair(a, b);
            Node.pair(a, c);
            Node.await(() -> c.sync.peerView("vs1") == HealthState.UP && b.sync.peerView("vs1") == HealthState.UP,
                    Duration.ofSeconds(5));
            assertThat(c.health.state("vs1")).isEqualTo(HealthState.UNKNOWN);
            assertThat(c.sync.peerView("vs1")).as("fills unknown").isEqualTo(HealthState.UP);
            assertThat(b.health.state("vs1")).isEqualTo(HealthState.DOWN);
            assertThat(b.sync.peerView("vs1")).isEqualTo(HealthState.UP); // the merge rule lives in MemberHealth:
            // local DOWN wins; see GslbServer.memberHealth and its test.
        }
    }
}
