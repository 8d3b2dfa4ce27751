package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.api.PeerStatus;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.DelayingResponder;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.proximity.Path;
import dev.gslb.site.HealthState;
import dev.gslb.topology.Address;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLSocket;
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
        try (DelayingResponder ldns = new DelayingResponder(LDNS)
                        .delay(cncSource, Duration.ofMillis(60))
                        .delay(telSource, Duration.ofMillis(10));
                Node a = new Node("gslb-cnc", "CNC", "127.0.0.2", ldns.port(), dir, List.of());
                Node b = new Node("gslb-tel", "TEL", "127.0.0.3", ldns.port(), dir, List.of())) {
            Node.pair(a, b);
            long start = System.nanoTime();
            // A meets an LDNS it has no entry for; answers, never waits
            a.scheduler.ldnsQueried(LDNS, System.currentTimeMillis());
            Awaits.until(
                    "both instances holding both paths to 127.0.0.50",
                    Duration.ofSeconds(5),
                    () -> a.hasPath("127.0.0.50", "CNC")
                            && a.hasPath("127.0.0.50", "TEL")
                            && b.hasPath("127.0.0.50", "CNC")
                            && b.hasPath("127.0.0.50", "TEL"));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("source flow: both instances hold both paths %.2f s after the first query%n", seconds);
            for (Node n : List.of(a, b)) {
                assertThat(n.entry("127.0.0.50").path("CNC").rttMicros())
                        .as(n.name)
                        .isGreaterThanOrEqualTo(60_000);
                assertThat(n.entry("127.0.0.50").path("TEL").rttMicros())
                        .as(n.name)
                        .isGreaterThanOrEqualTo(10_000)
                        .isLessThan(n.entry("127.0.0.50").path("CNC").rttMicros());
                assertThat(n.entry("127.0.0.50").path("TEL").measuredBy()).isEqualTo("gslb-tel");
            }
            assertThat(b.sync.status().getFirst().itemsReceived()).isGreaterThan(0);
        }
    }

    /**
     * The server reads its stored table after the peers connected: what it restores tells no
     * listener, so it sends every peer a snapshot again once read.
     */
    @Test
    void pathsReadFromTheStoreAfterThePeersConnectedReachThemWithASnapshotAgain() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            long now = System.currentTimeMillis();
            Address k = Address.parse("198.18.7.8");
            b.table.restore(
                    k,
                    dev.gslb.probe.proximity.LdnsEntry.of(
                            new Path[] {Path.of("TEL", 2000, 10000, 0, ProbeProtocol.TCP, now, "b")},
                            dev.gslb.probe.proximity.LdnsEntry.State.PROBED,
                            ProbeProtocol.TCP,
                            0,
                            now));
            Thread.sleep(300);
            assertThat(a.entry("198.18.7.8")).as("restored: no peer told").isNull();
            b.sync.resendSnapshots();
            Awaits.until("b's restored path on a", Duration.ofSeconds(10), () -> a.hasPath("198.18.7.8", "TEL"));
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
            Address k = Address.parse("198.18.7.7");
            a.table.recordPath(k, Path.of("CNC", 1000, 10000, 0, ProbeProtocol.TCP, now, "a"));
            b.table.recordPath(k, Path.of("TEL", 2000, 10000, 0, ProbeProtocol.TCP, now, "b"));
            c.table.recordPath(k, Path.of("CMCC", 3000, 10000, 0, ProbeProtocol.TCP, now, "c"));
            for (Node n : List.of(a, b, c)) {
                Awaits.until(
                        "three paths to 198.18.7.7 on " + n.name,
                        Duration.ofSeconds(5),
                        () -> n.entry("198.18.7.7").paths().length == 3);
                assertThat(n.entry("198.18.7.7").pathList())
                        .extracting(Path::dataCenter)
                        .containsExactlyInAnyOrder("CNC", "TEL", "CMCC");
            }
            // b claims a CNC path: only CNC's instance writes CNC paths, so nobody takes it
            b.table.recordPath(k, Path.of("CNC", 1, 10000, 0, ProbeProtocol.TCP, now + 1000, "b"));
            // then a path b does write: once a and c hold it, they have taken (or not) what b sent before it
            Address later = Address.parse("198.18.7.8");
            b.table.recordPath(later, Path.of("TEL", 2000, 10000, 0, ProbeProtocol.TCP, now, "b"));
            for (Node n : List.of(a, c)) {
                Awaits.until(
                        "b's later path on " + n.name, Duration.ofSeconds(5), () -> n.hasPath("198.18.7.8", "TEL"));
            }
            assertThat(a.entry("198.18.7.7").path("CNC").rttMicros()).isEqualTo(1000);
            assertThat(c.entry("198.18.7.7").path("CNC").rttMicros()).isEqualTo(1000);
        }
    }

    @Test
    void aCertificateThatIsNotPinnedIsRefusedInTheHandshake() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            double before = refused(a);
            SyncIdentity stranger = SyncIdentity.generate("b"); // same name, not the paired certificate
            assertThatThrownBy(() -> Session.open(
                                    a, stranger, new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null))
                            .reply())
                    .as("no application data is exchanged")
                    .isInstanceOf(IOException.class);
            Awaits.until("the stranger refused", Duration.ofSeconds(2), () -> refused(a) > before);
            assertThat(refused(a)).isEqualTo(before + 1);
            assertThat(a.connectedTo("b")).as("the real peer stays connected").isTrue();

            assertThat(a.sync.remove("b")).isTrue();
            assertThat(a.sync.status()).isEmpty();
            assertThat(PeersFile.read(a.peersFile)).as("the pin is forgotten").isEmpty();
            assertThat(a.sync.remove("b")).isFalse();
        }
    }

    @Test
    void aJoinTokenIsUsableOnceAndExpires() throws Exception {
        try (Node a = Node.tweaked("a", "CNC", "127.0.0.2", dir, s -> withJoinTtl(s, Duration.ofSeconds(1)));
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of());
                Node c = new Node("c", "CMCC", "127.0.0.4", 9, dir, List.of())) {
            String token = a.sync.pair(List.of()).token();
            assertThat(b.sync.join(token)).isEqualTo("a");
            assertThat(b.connectedTo("a")).as("join returns once connected").isTrue();
            assertThatThrownBy(() -> c.sync.join(token))
                    .as("replayed")
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("already used or has expired");
            assertThat(c.sync.status()).isEmpty();

            String late = a.sync.pair(List.of()).token();
            a.clock.advance(Duration.ofMillis(1500)); // past the 1 s TTL on the issuer and the joiner
            c.clock.advance(Duration.ofMillis(1500));
            assertThatThrownBy(() -> c.sync.join(late))
                    .as("expired")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expired");
            // the issuer refuses it too, even when the joiner's clock says otherwise
            assertThatThrownBy(() -> c.sync.join(withExpiry(late, System.currentTimeMillis() + 600_000)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("refused this instance's certificate");
            assertThat(a.sync.status()).extracting(PeerStatus::name).containsExactly("b");
        }
    }

    @Test
    void aPeerIsBoundByWhatItWasPairedAs() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            b.sync.close(); // the test speaks as b from here on: the real b must not replace its connection
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            double before = refused(a);
            try (Session s = Session.open(a, bId, new Hello(Wire.PROTOCOL_VERSION, "b", "CNC", List.of(), null))) {
                assertThat(s.closed()).as("b claiming a's data center").isTrue();
            }
            Awaits.until("the claim of a's data center refused", Duration.ofSeconds(2), () -> refused(a) > before);
            assertThat(refused(a)).isEqualTo(before + 1);

            long now = System.currentTimeMillis();
            try (Session s = Session.open(a, bId, new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null))) {
                s.reply();
                s.send(
                        Wire.Type.PATHS,
                        Item.encode(
                                Wire.Type.PATHS,
                                List.of(
                                        new Item.PathItem(
                                                Address.parse("198.18.40.1"),
                                                Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, now + 3_600_000, "b"),
                                                60_000),
                                        new Item.PathItem(
                                                Address.parse("198.18.40.2"),
                                                Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, now - 10_000, "b"),
                                                2_000))));
                Awaits.until("the clamped path taken", Duration.ofSeconds(2), () -> a.hasPath("198.18.40.1", "TEL"));
                assertThat(a.entry("198.18.40.1").path("TEL").measuredAt())
                        .as("a future time is clamped to now (kept in whole seconds)")
                        .isBetween(now - 1_000, now + 5_000);
                assertThat(a.entry("198.18.40.2"))
                        .as("already expired when it arrived")
                        .isNull();
                assertThat(a.registry.get("sync_items_clamped").counter().count())
                        .isEqualTo(1);
                // an RTT no probe can measure ends the connection
                s.send(
                        Wire.Type.PATHS,
                        Item.encode(
                                Wire.Type.PATHS,
                                List.of(new Item.PathItem(
                                        Address.parse("198.18.40.3"),
                                        Path.of("TEL", -5, 10000, 0, ProbeProtocol.TCP, now, "b"),
                                        60_000))));
                assertThat(s.closed()).isTrue();
                assertThat(a.entry("198.18.40.3")).isNull();
            }
        }
    }

    @Test
    void preAuthenticationConnectionsAreCappedAndClosedAtTheDeadline() throws Exception {
        int n = 1000;
        try (Node a = Node.tweaked("a", "CNC", "127.0.0.2", dir, s -> withHandshakes(s, Duration.ofSeconds(2), 64))) {
            var address = a.sync.listening().getFirst();
            System.gc();
            long heapBefore = usedHeap();
            List<Socket> sockets = new java.util.ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Socket s = new Socket(address.getAddress(), address.getPort());
                // a TLS handshake record that claims 16 KB, then a trickle
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01});
                sockets.add(s);
            }
            // One byte each every half second: SO_TIMEOUT alone never fires. A connection admitted
            // late (the accept queue still draining when the first held slots were freed at their
            // deadline) has its own 2 s from its accept, so the trickle goes on until every
            // connection has been seen closed, for at most 10 s.
            java.util.Set<Socket> seenClosed = new java.util.HashSet<>();
            for (int round = 0; round < 20 && seenClosed.size() < n; round++) {
                Thread.sleep(500); // kept: the trickle's pace is the slow client under test
                for (Socket s : sockets) {
                    try {
                        s.getOutputStream().write(0);
                    } catch (IOException closed) {
                        seenClosed.add(s); // closed by the server
                    }
                }
            }
            System.gc();
            long heapAfter = usedHeap();
            int open = 0;
            for (Socket s : sockets) {
                // a write refused is the server's close; else read what it sent (a TLS alert before
                // its close is not an open connection) until the end, or a wait says it is open
                if (!seenClosed.contains(s) && stillOpen(s)) {
                    open++;
                }
                s.close();
            }
            System.out.printf(
                    "pre-auth: %d connections, %d still open after %.1f s, heap %+d KB%n",
                    n, open, (System.nanoTime() - start) / 1e9, (heapAfter - heapBefore) / 1024);
            assertThat(open)
                    .as("all closed: over the cap at once, the rest at the 2 s deadline")
                    .isZero();
            assertThat(heapAfter - heapBefore).as("heap growth").isLessThan(64L << 20);
            assertThat(refused(a)).as("most were over the cap at accept").isGreaterThanOrEqualTo(n / 2);
        }
    }

    /** Whether {@code s} is still open: its reads neither reach the end nor fail within 1 ms. */
    private static boolean stillOpen(Socket s) throws IOException {
        s.setSoTimeout(1);
        try {
            for (int read = 0; read < 65536; read++) {
                if (s.getInputStream().read() < 0) {
                    return false;
                }
            }
            return true; // it keeps sending
        } catch (java.net.SocketTimeoutException waiting) {
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    @Test
    void replayedTamperedAndReflectedConnectionsAreRefused() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            b.sync.close(); // the test speaks as b
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            Hello hello = new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null);
            long now = System.currentTimeMillis();
            byte[] paths = Item.encode(
                    Wire.Type.PATHS,
                    List.of(new Item.PathItem(
                            Address.parse("198.18.50.1"),
                            Path.of("TEL", 5, 10000, 0, ProbeProtocol.TCP, now, "b"),
                            600_000)));
            // 1. a genuine session through a recording proxy
            java.io.ByteArrayOutputStream recorded = new java.io.ByteArrayOutputStream();
            try (Proxy proxy = new Proxy(a.sync.listening().getFirst(), recorded);
                    Session s = Session.open(proxy.address(), a.sync.fingerprint(), bId, hello)) {
                s.reply();
                s.send(Wire.Type.PATHS, paths);
                Awaits.until(
                        "the genuine session's path taken",
                        Duration.ofSeconds(2),
                        () -> a.hasPath("198.18.50.1", "TEL"));
                assertThat(a.hasPath("198.18.50.1", "TEL"))
                        .as("the genuine session is taken")
                        .isTrue();
            }
            a.table.remove(Address.parse("198.18.50.1"));
            // 2. the same bytes replayed on a new connection: fresh TLS randoms, so the handshake fails
            try (Socket replay = new Socket()) {
                replay.connect(a.sync.listening().getFirst());
                replay.setSoTimeout(3000);
                replay.getOutputStream().write(recorded.toByteArray());
                assertThat(drained(replay)).as("replayed: closed").isTrue();
            }
            assertThat(a.entry("198.18.50.1"))
                    .as("nothing replayed was applied")
                    .isNull();
            // 3. one flipped bit after the handshake: TLS refuses the record and the connection ends
            try (Proxy proxy = new Proxy(a.sync.listening().getFirst(), new java.io.ByteArrayOutputStream());
                    Session s = Session.open(proxy.address(), a.sync.fingerprint(), bId, hello)) {
                s.reply();
                proxy.flipNext = true;
                s.send(Wire.Type.PATHS, paths);
                assertThat(s.closed()).as("tampered: closed").isTrue();
            }
            assertThat(a.entry("198.18.50.1"))
                    .as("nothing tampered was applied")
                    .isNull();
            // 4. a's own certificate reflected back at it is not a peer's
            SyncIdentity aId = SyncIdentity.loadOrCreate(a.identityFile, "a");
            assertThatThrownBy(() -> Session.open(a, aId, new Hello(Wire.PROTOCOL_VERSION, "a", "CNC", List.of(), null))
                            .reply())
                    .as("reflected")
                    .isInstanceOf(IOException.class);
        }
    }

    /** Reads until the server closes (true) or nothing comes for the socket timeout (false). */
    static boolean drained(Socket s) {
        try {
            while (s.getInputStream().read() >= 0) {
                // the server's handshake bytes and alert
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** A TCP proxy on loopback for one connection: records what the client sends, and can flip one bit of it. */
    static final class Proxy implements AutoCloseable {
        private final java.net.ServerSocket server = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        volatile boolean flipNext;

        Proxy(java.net.InetSocketAddress target, java.io.ByteArrayOutputStream recorded) throws IOException {
            Thread.ofVirtual().start(() -> {
                try (Socket client = server.accept();
                        Socket upstream = new Socket(target.getAddress(), target.getPort())) {
                    Thread back = Thread.ofVirtual().start(() -> pump(upstream, client, null));
                    pump(client, upstream, recorded);
                    back.join();
                } catch (IOException | InterruptedException e) {
                    // the test ended the connection
                }
            });
        }

        private void pump(Socket from, Socket to, java.io.ByteArrayOutputStream recorded) {
            byte[] buf = new byte[65536];
            try {
                for (int n; (n = from.getInputStream().read(buf)) >= 0; ) {
                    if (recorded != null) {
                        synchronized (recorded) {
                            recorded.write(buf, 0, n);
                        }
                        if (flipNext) {
                            flipNext = false;
                            buf[n - 1] ^= 1;
                        }
                    }
                    to.getOutputStream().write(buf, 0, n);
                }
            } catch (IOException e) {
                // closed
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // closed
                }
            }
        }

        java.net.InetSocketAddress address() {
            return (java.net.InetSocketAddress) server.getLocalSocketAddress();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void keyMaterialAndPeersFilesOthersCanReadAreRefused() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            for (java.nio.file.Path f : List.of(a.identityFile, a.peersFile)) {
                assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                        .as(f.toString())
                        .isEqualTo("rw-------");
            }
        }
        Files.setPosixFilePermissions(
                dir.resolve("a-identity.pem"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> new Node("a", "CNC", "127.0.0.2", 9, dir, List.of()).close())
                .hasMessageContaining("a-identity.pem is rw-r--r--")
                .hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(
                dir.resolve("a-identity.pem"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(
                dir.resolve("a.peers"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-r--"));
        assertThatThrownBy(() -> new Node("a", "CNC", "127.0.0.2", 9, dir, List.of()).close())
                .hasMessageContaining("a.peers is rw-rw-r--");
    }

    @Test
    void aPairingNeverPutsAWildcardInATokenAndWarnsAboutLoopback() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of())) {
            assertThatThrownBy(() -> a.sync.pair(
                            List.of(new java.net.InetSocketAddress(InetAddress.ofLiteral("0.0.0.0"), 8054))))
                    .hasMessageContaining("sync.advertise")
                    .hasMessageContaining("--advertise");
            assertThat(a.sync.pair(List.of()).warnings())
                    .singleElement()
                    .asString()
                    .contains("loopback", "only an instance on this same host");
            assertThat(a.sync.pair(List.of(new java.net.InetSocketAddress(InetAddress.ofLiteral("198.18.41.1"), 8054)))
                            .warnings())
                    .isEmpty();
        }
    }

    static long usedHeap() {
        var m = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return m.getUsed();
    }

    static double refused(Node n) {
        return n.registry.get("sync_connections_refused").counter().count();
    }

    static List<java.net.InetSocketAddress> loop(String ip) {
        return List.of(new java.net.InetSocketAddress(InetAddress.ofLiteral(ip), 0));
    }

    static SyncSettings withJoinTtl(SyncSettings s, Duration ttl) {
        return new SyncSettings(
                s.listen(),
                List.of(),
                s.peersFile(),
                s.identityFile(),
                s.heartbeat(),
                s.deadAfter(),
                s.pathTtl(),
                s.healthTtl(),
                s.probeTtl(),
                s.queue(),
                ttl,
                s.handshakeTimeout(),
                s.limits(),
                s.maxClockSkew(),
                s.peerItemsPerSecond());
    }

    static SyncSettings withHandshakes(SyncSettings s, Duration timeout, int max) {
        return withLimits(s, timeout, s.limits().withMaxHandshakes(max));
    }

    static SyncSettings withLimits(SyncSettings s, Duration timeout, SyncPortLimits limits) {
        return new SyncSettings(
                s.listen(),
                List.of(),
                s.peersFile(),
                s.identityFile(),
                s.heartbeat(),
                s.deadAfter(),
                s.pathTtl(),
                s.healthTtl(),
                s.probeTtl(),
                s.queue(),
                s.joinTokenTtl(),
                timeout,
                limits,
                s.maxClockSkew(),
                s.peerItemsPerSecond());
    }

    /** The token with another expiry written in it (what a joiner with a wrong clock would believe). */
    static String withExpiry(String token, long epochMillis) {
        var b64 = java.util.Base64.getUrlDecoder();
        String[] f = new String(b64.decode(token), java.nio.charset.StandardCharsets.UTF_8).split("\\|");
        f[6] = Long.toString(epochMillis);
        return java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(String.join("|", f).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A test client doing a dialler's side by hand, over TLS as {@code as}, trusting only the node's certificate. */
    record Session(SSLSocket socket, DataOutputStream out, DataInputStream in) implements AutoCloseable {
        static Session open(Node to, SyncIdentity as, Hello hello) throws Exception {
            return open(to.sync.listening().getFirst(), to.sync.fingerprint(), as, hello);
        }

        static Session open(java.net.InetSocketAddress address, String fingerprint, SyncIdentity as, Hello hello)
                throws Exception {
            SSLSocket s = (SSLSocket) as.context(new PinnedTrust(fingerprint::equals))
                    .getSocketFactory()
                    .createSocket(address.getAddress(), address.getPort());
            s.setSoTimeout(3000);
            s.startHandshake();
            var out = new DataOutputStream(s.getOutputStream());
            var in = new DataInputStream(s.getInputStream());
            Wire.write(out, hello.type(), hello.encode());
            return new Session(s, out, in);
        }

        Hello reply() throws IOException {
            return Hello.decode(Wire.read(in));
        }

        void send(Wire.Type type, byte[] body) throws IOException {
            Wire.write(out, type, body);
        }

        boolean closed() {
            try {
                while (true) { // a hello and heartbeats may come first; the end of the stream is what counts
                    Wire.read(in);
                }
            } catch (java.io.EOFException | javax.net.ssl.SSLException e) {
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
            for (int i = 0; i < 2_500; i++) { // two and a half batches: the snapshot streams, the last one partial
                a.table.recordPath(
                        Address.parse("198.18." + (20 + i / 250) + "." + i % 250),
                        Path.of("CNC", 100 + i, 10000, 0, ProbeProtocol.UDP, now, "a"));
            }
            Address old = Address.parse("198.18.40.1");
            a.table.recordPath(
                    old, Path.of("CNC", 1, 10000, 0, ProbeProtocol.UDP, now - 3_000_000, "a")); // past the TTL
            b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of()); // same peers file: reconnects by itself
            Node b2 = b;
            Awaits.until("2,500 paths on the restarted b", Duration.ofSeconds(10), () -> b2.table.size() >= 2_500);
            assertThat(b.table.size()).as("all fresh paths, none expired").isEqualTo(2_500);
            assertThat(b.entry("198.18.40.1")).isNull();
            assertThat(b.entry("198.18.29.249").path("CNC").rttMicros()).isEqualTo(100 + 2_499);
            a.table.recordPath(Address.parse("198.18.41.1"), Path.of("CNC", 7, 10000, 0, ProbeProtocol.UDP, now, "a"));
            Awaits.until("the delta after the snapshot", Duration.ofSeconds(5), () -> b2.hasPath("198.18.41.1", "CNC"));
            assertThat(b.hasPath("198.18.41.1", "CNC")).as("then deltas").isTrue();
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void expiredItemsAreDroppedOnReceiptAndOnExpiry() throws Exception {
        var shortTtl = Duration.ofSeconds(2);
        var loop = (java.util.function.Function<String, List<java.net.InetSocketAddress>>)
                ip -> List.of(new java.net.InetSocketAddress(InetAddress.ofLiteral(ip), 0));
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of(), loop.apply("127.0.0.2"), shortTtl);
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of(), loop.apply("127.0.0.3"), shortTtl)) {
            Node.pair(a, b);
            long now = System.currentTimeMillis();
            b.table.recordPath(Address.parse("198.18.30.1"), Path.of("TEL", 9, 10000, 0, ProbeProtocol.UDP, now, "b"));
            Awaits.until("the path received", Duration.ofSeconds(3), () -> a.hasPath("198.18.30.1", "TEL"));
            assertThat(a.hasPath("198.18.30.1", "TEL"))
                    .as("received while fresh")
                    .isTrue();
            Awaits.until(
                    "the path dropped at its expiry", Duration.ofSeconds(5), () -> !a.hasPath("198.18.30.1", "TEL"));
            assertThat(a.hasPath("198.18.30.1", "TEL"))
                    .as("dropped when it expired")
                    .isFalse();
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
        HealthTarget seenUpByA = new HealthTarget(
                "vs1",
                InetAddress.ofLiteral("127.0.1.1"),
                "CNC",
                List.of(new MonitorSpec(
                        "x", new dev.gslb.probe.health.ExternalCheck(List.of("up.sh"), up), fast, fast, 1, 1)));
        HealthTarget seenDownByB = new HealthTarget(
                "vs1",
                InetAddress.ofLiteral("127.0.1.1"),
                "CNC",
                List.of(new MonitorSpec(
                        "x", new dev.gslb.probe.health.ExternalCheck(List.of("down.sh"), down), fast, fast, 1, 1)));
        HealthTarget unmonitored = new HealthTarget("vs1", InetAddress.ofLiteral("127.0.1.1"), "CNC", List.of());
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of(seenUpByA));
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of(seenDownByB));
                Node c = new Node("c", "BGP", "127.0.0.4", 9, dir, List.of(unmonitored))) {
            a.health.start();
            b.health.start();
            Node.pair(a, b);
            Node.pair(a, c);
            Awaits.until(
                    "c and b holding a's UP view",
                    Duration.ofSeconds(5),
                    () -> c.site.state().peerHealth("vs1") == HealthState.UP
                            && b.site.state().peerHealth("vs1") == HealthState.UP);
            assertThat(c.health.state("vs1")).isEqualTo(HealthState.UNKNOWN);
            assertThat(c.site.state().peerHealth("vs1")).as("fills unknown").isEqualTo(HealthState.UP);
            assertThat(b.health.state("vs1")).isEqualTo(HealthState.DOWN);
            assertThat(b.site.state().peerHealth("vs1")).isEqualTo(HealthState.UP);
            assertThat(c.site.state().health("vs1"))
                    .as("a peer's view fills unknown")
                    .isEqualTo(HealthState.UP);
            assertThat(b.site.state().health("vs1")).as("a local DOWN wins").isEqualTo(HealthState.DOWN);
            assertThat(a.site.state().health("vs1")).isEqualTo(HealthState.UP);
        }
    }
}
