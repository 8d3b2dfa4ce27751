package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runtime states and DNSSEC keys between two real instances over TLS on loopback: peer sync
 * carries each instance's offer, the owner decides. Each test runs for both kinds; the runtime
 * states go through their own public interface ({@link RuntimeStateExchange}), the keys through
 * {@link KeyExchange}.
 */
class OfferSyncTest {
    @TempDir
    java.nio.file.Path dir;

    /** An owner that offers what the test sets and remembers what peers offered. */
    static final class Owner implements KeyExchange {
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

        /** This owner as the runtime states' owner a server implements. */
        RuntimeStateExchange asRuntimeStates() {
            return new RuntimeStateExchange() {
                @Override
                public RuntimeStateExchange.Offer current() {
                    OfferExchange.Offer o = current;
                    return o == null ? null : new RuntimeStateExchange.Offer(o.generation(), o.origin(), o.content());
                }

                @Override
                public void received(String peer, RuntimeStateExchange.Offer offer) {
                    Owner.this.received(
                            peer, new OfferExchange.Offer(offer.generation(), offer.origin(), offer.states()));
                }
            };
        }
    }

    /** A node whose owner of {@code kind} is {@code owner}. */
    private Node node(OfferKind kind, String name, String dc, String source, Owner owner) throws Exception {
        return switch (kind) {
            case RUNTIME_STATES -> Node.withRuntimeStates(name, dc, source, dir, owner.asRuntimeStates());
            case KEYS -> Node.withKeys(name, dc, source, dir, owner);
        };
    }

    private static void publish(OfferKind kind, Node n) {
        switch (kind) {
            case RUNTIME_STATES -> n.sync.publishRuntimeStates();
            case KEYS -> n.sync.publishKeys();
        }
    }

    private static OfferExchange.Offer offer(long generation, String origin, String content) {
        return new OfferExchange.Offer(generation, origin, content.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void publishedOffersArriveAtThePeerWithTheSameBytesBothWays(OfferKind kind) throws Exception {
        Owner aOwner = new Owner();
        Owner bOwner = new Owner();
        try (Node a = node(kind, "a", "CNC", "127.0.0.2", aOwner);
                Node b = node(kind, "b", "TEL", "127.0.0.3", bOwner)) {
            Node.pair(a, b);
            var fromA = offer(1, "a", "{\"web-1\":\"disabled\"}");
            aOwner.current = fromA;
            publish(kind, a);
            Awaits.until("b holding a's generation 1", Duration.ofSeconds(5), () -> bOwner.has(1));
            assertThat(bOwner.received).singleElement().satisfies(r -> {
                assertThat(r.peer()).isEqualTo("a");
                assertThat(r.offer().origin()).isEqualTo("a");
                assertThat(r.offer().content()).containsExactly(fromA.content());
            });
            assertThat(aOwner.received).as("b has nothing to offer yet").isEmpty();

            var fromB = offer(5, "b", "PK\u0003\u0004 a zip of b's keys");
            bOwner.current = fromB;
            publish(kind, b);
            Awaits.until("a holding b's generation 5", Duration.ofSeconds(5), () -> aOwner.has(5));
            assertThat(aOwner.last().origin()).isEqualTo("b");
            assertThat(aOwner.last().content()).containsExactly(fromB.content());

            byte[] largest = new byte[kind.maxBytes];
            Arrays.fill(largest, (byte) ' ');
            aOwner.current = new OfferExchange.Offer(2, "a", largest);
            publish(kind, a);
            Awaits.until("b holding a's generation 2", Duration.ofSeconds(5), () -> bOwner.has(2));
            assertThat(bOwner.last().content())
                    .as("the largest the wire carries")
                    .containsExactly(largest);

            aOwner.current = new OfferExchange.Offer(3, "a", new byte[kind.maxBytes + 1]);
            publish(kind, a); // refused here, logged once: a peer would close the connection at it
            aOwner.current = offer(4, "a", "after the oversized one");
            publish(kind, a);
            Awaits.until("b holding a's generation 4", Duration.ofSeconds(5), () -> bOwner.has(4));
            assertThat(bOwner.has(3))
                    .as("more than the wire carries is not sent")
                    .isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void eachSideGetsTheOthersCurrentOfferWhenTheyConnectAndAgainAfterAReconnect(OfferKind kind) throws Exception {
        Owner aOwner = new Owner();
        aOwner.current = offer(3, "a", "{\"pool-1\":\"drained\"}");
        Owner bOwner = new Owner();
        bOwner.current = offer(8, "b", "b's own");
        Node a = node(kind, "a", "CNC", "127.0.0.2", aOwner);
        Node b = node(kind, "b", "TEL", "127.0.0.3", bOwner);
        try {
            Node.pair(a, b); // nothing published: the first connections' snapshots carry them
            Awaits.until("b holding a's generation 3", Duration.ofSeconds(5), () -> bOwner.has(3));
            Awaits.until("a holding b's generation 8", Duration.ofSeconds(5), () -> aOwner.has(8));

            b.close();
            var current = offer(4, "a", "{\"pool-1\":\"enabled\"}");
            aOwner.current = current;
            publish(kind, a); // b is down: it learns this when it is back
            Owner restarted = new Owner();
            b = node(kind, "b", "TEL", "127.0.0.3", restarted); // same peers file: reconnects
            Awaits.until("the restarted b holding generation 4", Duration.ofSeconds(10), () -> restarted.has(4));
            assertThat(restarted.last().content()).containsExactly(current.content());
            assertThat(restarted.received)
                    .as("only the current offer, not those it missed")
                    .allSatisfy(r -> assertThat(r.offer().generation()).isEqualTo(4));
        } finally {
            a.close();
            b.close();
        }
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void aPeerFloodingOffersReachesTheOwnerTenTimesASecondAndItsNewestLast(OfferKind kind) throws Exception {
        Owner aOwner = new Owner();
        try (Node a = node(kind, "a", "CNC", "127.0.0.2", aOwner);
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            int sent = 1000;
            long start = System.nanoTime();
            try (PeerSyncTest.Session s = speakingAsB(a, b)) {
                byte[] content = new byte[1024];
                for (int g = 1; g <= sent; g++) {
                    var offer = new OfferExchange.Offer(g, "b", content);
                    s.send(kind.type, Item.encode(kind.type, List.of(new Item.OfferItem(kind, offer))));
                }
                Awaits.until("the newest offer on a", Duration.ofSeconds(20), () -> aOwner.has(sent));
            }
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            int handed = aOwner.received.size();
            System.out.printf(
                    "%s: %d offers in %d ms reached the owner %d times%n", kind.what, sent, elapsedMillis, handed);
            assertThat(aOwner.last().generation()).as("the newest is the last").isEqualTo(sent);
            assertThat(handed).isLessThanOrEqualTo((int) (elapsedMillis / OfferPacer.INTERVAL_MILLIS) + 2);
            for (int i = 1; i < handed; i++) {
                long gap = aOwner.received.get(i).atNanos()
                        - aOwner.received.get(i - 1).atNanos();
                assertThat(gap).as("between hand-overs").isGreaterThanOrEqualTo(95_000_000L);
                assertThat(aOwner.received.get(i).offer().generation())
                        .as("in order")
                        .isGreaterThan(aOwner.received.get(i - 1).offer().generation());
            }
            assertThat(a.registry
                            .get("sync_" + kind.metric + "_superseded")
                            .counter()
                            .count())
                    .isEqualTo(sent - handed);
        }
    }

    @ParameterizedTest
    @EnumSource(OfferKind.class)
    void anOversizedOrMalformedOfferEndsTheConnectionAndReachesNoOwner(OfferKind kind) throws Exception {
        int over = kind.maxBytes + 1;
        byte[] good = OfferItemTest.body(1, 1, "b", 2, new byte[2]);
        Map<String, byte[]> refused = Map.of(
                "oversized", OfferItemTest.body(1, 1, "b", over, new byte[over]),
                "a trailing byte", Arrays.copyOf(good, good.length + 1),
                "a name too long", OfferItemTest.body(1, 1, "x".repeat(Hello.MAX_NAME + 1), 0, new byte[0]),
                "a negative generation", OfferItemTest.body(1, -1, "b", 0, new byte[0]));
        Owner aOwner = new Owner();
        try (Node a = node(kind, "a", "CNC", "127.0.0.2", aOwner);
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            for (var e : refused.entrySet()) {
                try (PeerSyncTest.Session s = a.speakAs(b)) {
                    s.send(kind.type, e.getValue());
                    assertThat(s.closed()).as(e.getKey() + ": closed").isTrue();
                }
            }
            assertThat(aOwner.received).isEmpty();
        }
    }

    /** Pairs a and b, stops b's sync and opens a session to a as b: the test sends what b would. */
    static PeerSyncTest.Session speakingAsB(Node a, Node b) throws Exception {
        Node.pair(a, b);
        return a.speakAs(b);
    }

    @Test
    void aPeerOfTheProtocolBeforeKeysIsRefusedAtItsHello() throws Exception {
        try (Node a = new Node("a", "CNC", "127.0.0.2", 9, dir, List.of());
                Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of())) {
            Node.pair(a, b);
            b.sync.close();
            SyncIdentity bId = SyncIdentity.loadOrCreate(b.identityFile, "b");
            double before = PeerSyncTest.refused(a);
            Hello v6 = new Hello(Wire.PROTOCOL_VERSION - 1, "b", "TEL", List.of(), null);
            assertThatThrownBy(() -> PeerSyncTest.Session.open(a, bId, v6).reply())
                    .as("no session")
                    .isInstanceOf(IOException.class);
            Awaits.until("the v6 hello refused", Duration.ofSeconds(2), () -> PeerSyncTest.refused(a) > before);
        }
    }
}
