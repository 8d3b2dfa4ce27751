package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.api.PeerStatus;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins as an attacker holding a valid join secret makes them, over real TLS with throw-away
 * certificates: a data center is admitted only as the configuration and the pairing's terms allow,
 * and one token admits one instance, however many race for it.
 */
class PairingAdmissionTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void aJoinMayClaimOnlyADataCenterTheConfigurationAndThePairingAllow() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            String token = a.sync.pair(List.of()).token();
            int admitted = 0;
            for (String dc : List.of("CNC", "NO-SUCH-DC", "TEL")) { // ours, none, beside the paired TEL
                if (join(a, token, "x-" + dc.toLowerCase(java.util.Locale.ROOT), dc)) {
                    admitted++;
                }
            }
            System.out.printf("joins claiming our CNC, NO-SUCH-DC, a second TEL: %d of 3 admitted%n", admitted);
            assertThat(admitted).isZero();
            assertThat(a.sync.status()).extracting(PeerStatus::name).containsExactly("b");
            assertThat(join(a, token, "c", "CMCC"))
                    .as("the token refused nothing else")
                    .isTrue();
            assertThat(a.sync.status()).extracting(PeerStatus::dataCenter).containsExactlyInAnyOrder("TEL", "CMCC");

            String shared = a.sync.pair(List.of(), null, true).token();
            assertThat(join(a, shared, "a2", "CNC"))
                    .as("active/standby, as the operator allowed")
                    .isTrue();

            String forBgp = a.sync.pair(List.of(), "BGP", false).token();
            assertThat(join(a, forBgp, "d", "CTT")).as("a token bound to BGP").isFalse();
            assertThat(join(a, forBgp, "d", "BGP")).isTrue();
        }
    }

    @Test
    void offersAndTokensThatNoJoinCouldMeetAreRefusedEarly() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            assertThatThrownBy(() -> a.sync.pair(List.of(), "NO-SUCH-DC", false))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("NO-SUCH-DC is not in this configuration's datacenters");
            assertThatThrownBy(() -> a.sync.pair(List.of(), "CNC", false))
                    .hasMessageContaining("own data center")
                    .hasMessageContaining("--allow-shared-datacenter");
            assertThatThrownBy(() ->
                            b.sync.join(a.sync.pair(List.of(), "CMCC", false).token()))
                    .as("the joining side, before it dials")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("for an instance in data center CMCC, and this one is in TEL")
                    .hasMessageContaining("gslb peer pair --datacenter TEL");
            assertThat(b.sync.status()).isEmpty();
            String v2 = java.util.Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(("v2|a|CNC|127.0.0.2:8054|" + "0".repeat(64) + "|AAAA|1").getBytes());
            assertThatThrownBy(() -> b.sync.join(v2))
                    .hasMessageContaining("older gslb")
                    .hasMessageContaining("upgrade a");
        }
    }

    @Test
    void ofEightJoinsRacingWithOneTokenOneIsAdmitted() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of())) {
            String token = a.sync.pair(List.of()).token();
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger admitted = new AtomicInteger();
            List<Thread> racers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String name = "racer" + i;
                racers.add(Thread.ofVirtual().start(() -> {
                    try {
                        start.await();
                        if (join(a, token, name, "TEL", "127.0.2." + name.substring(5))) {
                            admitted.incrementAndGet();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : racers) {
                t.join();
            }
            System.out.printf("eight racing joins with one token: %d admitted%n", admitted.get());
            assertThat(admitted.get()).isEqualTo(1);
            assertThat(a.sync.status()).hasSize(1);
        }
    }

    static boolean join(Node to, String token, String name, String dc) throws Exception {
        return join(to, token, name, dc, "127.0.0.1");
    }

    /**
     * A JOIN with {@code token}'s secret as {@code name} in {@code dc}, with a throw-away
     * certificate, from {@code source}: whether it was admitted (the node's hello came back).
     */
    static boolean join(Node to, String token, String name, String dc, String source) throws Exception {
        Hello join = new Hello(
                Wire.PROTOCOL_VERSION,
                name,
                dc,
                List.of(),
                JoinToken.parse(token).secret());
        try (Socket raw = new Socket()) {
            raw.bind(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
            raw.connect(to.sync.listening().getFirst(), 3000);
            raw.setSoTimeout(5000);
            SSLSocket s = SyncIdentity.over(
                    SyncIdentity.generate(name).context(new PinnedTrust(to.sync.fingerprint()::equals)), raw, true);
            s.startHandshake();
            Wire.write(new DataOutputStream(s.getOutputStream()), join.type(), join.encode());
            return Hello.decode(Wire.read(new DataInputStream(s.getInputStream())))
                    .instance()
                    .equals(to.name);
        } catch (IOException refused) {
            return false;
        }
    }
}
