package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runtime states between two real instances over TLS on loopback: peer sync carries them, the owner decides. */
class RuntimeStateSyncTest {
    @TempDir
    java.nio.file.Path dir;

    /** A runtime states' owner that serves what the test sets and remembers what peers offered. */
    static final class Owner implements RuntimeStateExchange {
        record Received(String peer, Offer offer, long atNanos) {}

        volatile Offer current;
        final List<Received> received = new CopyOnWriteArrayList<>();

        @Override
        public Offer current() {
            return current;
        }

        @Override
        public void received(String peer, Offer offer) {
            received.add(new Received(peer, offer, System.nanoTime()));
        }

        boolean has(long generation) {
            return received.stream().anyMatch(r -> r.offer().generation() == generation);
        }

        Offer last() {
            return received.getLast().offer();
        }
    }

    @Test
    void publishedStatesArriveAtThePeerWithTheSameBytes() throws Exception {
        Owner aStates = new Owner();
        Owner bStates = new Owner();
        try (Node a = Node.withRuntimeStates("a", "CNC", "127.0.0.2", dir, aStates);
                Node b = Node.withRuntimeStates("b", "TEL", "127.0.0.3", dir, bStates)) {
            Node.pair(a, b);
            byte[] states = "{\"web-1\":\"disabled\"}".getBytes(StandardCharsets.UTF_8);
            aStates.current = new RuntimeStateExchange.Offer(1, "a", states);
            long start = System.nanoTime();
            a.sync.publishRuntimeStates();
            assertThat(System.nanoTime() - start)
                    .as("publishing does not wait on the peer")
                    .isLessThan(50_000_000L);
            Awaits.until("b holding a's generation 1", Duration.ofSeconds(5), () -> bStates.has(1));
            assertThat(bStates.received).singleElement().satisfies(r -> {
                assertThat(r.peer()).isEqualTo("a");
                assertThat(r.offer().origin()).isEqualTo("a");
                assertThat(r.offer().states()).containsExactly(states);
            });

            byte[] largest = new byte[Wire.MAX_RUNTIME_STATES];
            Arrays.fill(largest, (byte) ' ');
            aStates.current = new RuntimeStateExchange.Offer(2, "a", largest);
            a.sync.publishRuntimeStates();
            Awaits.until("b holding a's generation 2", Duration.ofSeconds(5), () -> bStates.has(2));
            assertThat(bStates.last().states())
                    .as("the largest the wire carries")
                    .containsExactly(largest);
            assertThat(aStates.received).as("b has no states to offer").isEmpty();
        }
    }

    @Test
    void aPeerThatConnectsLaterGetsTheCurrentStatesInItsSnapshot() throws Exception {
        Owner aStates = new Owner();
        aStates.current =
                new RuntimeStateExchange.Offer(3, "a", "{\"pool-1\":\"drained\"}".getBytes(StandardCharsets.UTF_8));
        Node a = Node.withRuntimeStates("a", "CNC", "127.0.0.2", dir, aStates);
        Owner bStates = new Owner();
        Node b = Node.withRuntimeStates("b", "TEL", "127.0.0.3", dir, bStates);
        try {
            Node.pair(a, b); // nothing published: the first connection's snapshot carries it
            Awaits.until("b holding a's generation 3", Duration.ofSeconds(5), () -> bStates.has(3));

            b.close();
            byte[] states = "{\"pool-1\":\"enabled\"}".getBytes(StandardCharsets.UTF_8);
            aStates.current = new RuntimeStateExchange.Offer(4, "a", states);
            a.sync.publishRuntimeStates(); // b is down: it learns this when it is back
            Owner restarted = new Owner();
            b = Node.withRuntimeStates("b", "TEL", "127.0.0.3", dir, restarted); // same peers file: reconnects
            Awaits.until("the restarted b holding generation 4", Duration.ofSeconds(10), () -> restarted.has(4));
            assertThat(restarted.last().states()).containsExactly(states);
            assertThat(restarted.received)
                    .as("only the current states, not those it missed")
                    .allSatisfy(r -> assertThat(r.offer().generation()).isEqualTo(4));
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void aPeerFloodingStatesReachesTheOwnerTenTimesASecondAndItsNewestLast() throws Exception {
        Owner aStates = new Owner();
        try (Node a = Node.withRuntimeStates("a", "CNC", "127.0.0.2", dir, aStates);
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            int sent = 1000;
            long start = System.nanoTime();
            try (PeerSyncTest.Session s = speakingAsB(a, b)) {
                byte[] states = new byte[1024];
                for (int g = 1; g <= sent; g++) {
                    var offer = new RuntimeStateExchange.Offer(g, "b", states);
                    s.send(Wire.Type.RUNTIME, Item.encode(Wire.Type.RUNTIME, List.of(new Item.RuntimeItem(offer))));
                }
                Awaits.until("the newest states on a", Duration.ofSeconds(20), () -> aStates.has(sent));
            }
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            int handed = aStates.received.size();
            System.out.printf(
                    "runtime states: %d offers in %d ms reached the owner %d times%n", sent, elapsedMillis, handed);
            assertThat(aStates.last().generation()).as("the newest is the last").isEqualTo(sent);
            assertThat(handed).isLessThanOrEqualTo((int) (elapsedMillis / RuntimeStatePacer.INTERVAL_MILLIS) + 2);
            for (int i = 1; i < handed; i++) {
                long gap = aStates.received.get(i).atNanos()
                        - aStates.received.get(i - 1).atNanos();
                assertThat(gap).as("between hand-overs").isGreaterThanOrEqualTo(95_000_000L);
                assertThat(aStates.received.get(i).offer().generation())
                        .as("in order")
                        .isGreaterThan(aStates.received.get(i - 1).offer().generation());
            }
            assertThat(a.registry
                            .get("sync_runtime_states_superseded")
                            .counter()
                            .count())
                    .isEqualTo(sent - handed);
        }
    }

    @Test
    void anOversizedRuntimeItemEndsTheConnectionAndReachesNoOwner() throws Exception {
        Owner aStates = new Owner();
        try (Node a = Node.withRuntimeStates("a", "CNC", "127.0.0.2", dir, aStates);
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            try (PeerSyncTest.Session s = speakingAsB(a, b)) {
                int over = Wire.MAX_RUNTIME_STATES + 1;
                s.send(Wire.Type.RUNTIME, RuntimeItemTest.body(1, 1, "b", over, new byte[over]));
                assertThat(s.closed()).as("refused: closed").isTrue();
            }
            assertThat(aStates.received).isEmpty();
        }
    }

    /** Pairs a and b, stops b's sync and opens a session to a as b: the test sends what b would. */
    static PeerSyncTest.Session speakingAsB(Node a, Node b) throws Exception {
        Node.pair(a, b);
        b.sync.close();
        SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
        PeerSyncTest.Session s =
                PeerSyncTest.Session.open(a, bId, new Hello(Wire.PROTOCOL_VERSION, "b", "TEL", List.of(), null));
        s.reply();
        return s;
    }

    @Test
    void aPeerOfTheProtocolBeforeRuntimeStatesIsRefusedAtItsHello() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            b.sync.close();
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            double before = PeerSyncTest.refused(a);
            Hello v4 = new Hello(Wire.PROTOCOL_VERSION - 1, "b", "TEL", List.of(), null);
            assertThatThrownBy(() -> PeerSyncTest.Session.open(a, bId, v4).reply())
                    .as("no session")
                    .isInstanceOf(IOException.class);
            Awaits.until("the v4 hello refused", Duration.ofSeconds(2), () -> PeerSyncTest.refused(a) > before);
        }
    }
}
