package dev.gslb.sync;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The sync port's connection slots, taken at accept by the source address alone: one of
 * max-connections for as long as the connection is open, and until it is authenticated one
 * handshake slot. A paired peer's address has handshake slots of its own, so strangers holding
 * connections cannot keep a peer from reconnecting; every other source shares max-handshakes, at
 * most max-handshakes-per-source each. The counts are kept only for sources that hold a slot.
 */
final class ConnectionSlots {
    /** Addresses that authenticated peers connected from, newest kept (a peer need not dial from what it advertises). */
    private static final int MAX_LEARNED = 64;

    /** Why a connection was not let in: the listener closes it and logs the reason once per source. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false); // an expected refusal: no stack trace
        }
    }

    /** What one accepted connection holds; {@link #close()} gives it all back, once. */
    final class Slot implements AutoCloseable {
        private final InetAddress source;
        private final boolean peer;
        private boolean handshaking = true;
        private boolean open = true;

        private Slot(InetAddress source, boolean peer) {
            this.source = source;
            this.peer = peer;
        }

        /** The connection proved who it is: its handshake slot is free for the next. */
        void authenticated() {
            synchronized (ConnectionSlots.this) {
                releaseHandshake();
            }
        }

        @Override
        public void close() {
            synchronized (ConnectionSlots.this) {
                releaseHandshake();
                if (open) {
                    open = false;
                    connections--;
                }
            }
        }

        private void releaseHandshake() {
            if (handshaking) {
                handshaking = false;
                if (peer) {
                    down(peerHandshakes, source);
                } else {
                    shared--;
                    down(perSource, source);
                }
            }
        }
    }

    private final SyncPortLimits limits;
    private final Predicate<InetAddress> advertisedByPeer;
    private final Map<InetAddress, Integer> perSource = new HashMap<>();
    private final Map<InetAddress, Integer> peerHandshakes = new HashMap<>();
    private final Map<InetAddress, Boolean> learned = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Boolean> eldest) {
            return size() > MAX_LEARNED;
        }
    };
    private int connections;
    private int shared;

    /** {@code advertisedByPeer}: whether an address is one a paired peer advertises (asked at each accept). */
    ConnectionSlots(SyncPortLimits limits, Predicate<InetAddress> advertisedByPeer) {
        this.limits = limits;
        this.advertisedByPeer = advertisedByPeer;
    }

    /** Slots for a connection from {@code from}, or why there are none. */
    synchronized Slot take(InetAddress from) throws Refused {
        if (connections >= limits.maxConnections()) {
            throw new Refused("the sync port holds max-connections (" + limits.maxConnections() + ") connections");
        }
        Slot slot;
        if ((learned.containsKey(from) || advertisedByPeer.test(from))
                && peerHandshakes.getOrDefault(from, 0) < limits.peerHandshakes()) {
            peerHandshakes.merge(from, 1, Integer::sum);
            slot = new Slot(from, true);
        } else {
            InetAddress source = source(from);
            if (perSource.getOrDefault(source, 0) >= limits.maxHandshakesPerSource()) {
                throw new Refused("max-handshakes-per-source (" + limits.maxHandshakesPerSource()
                        + ") connections from it are in their handshake");
            }
            if (shared >= limits.maxHandshakes()) {
                throw new Refused("max-handshakes (" + limits.maxHandshakes() + ") connections are in their handshake");
            }
            shared++;
            perSource.merge(source, 1, Integer::sum);
            slot = new Slot(source, false);
        }
        connections++;
        return slot;
    }

    /** A paired peer authenticated from {@code from}: that address gets the peers' slots too. */
    synchronized void learn(InetAddress from) {
        learned.put(from, Boolean.TRUE);
    }

    /** Connections open now (for the figures). */
    synchronized int open() {
        return connections;
    }

    private static void down(Map<InetAddress, Integer> counts, InetAddress key) {
        counts.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
    }

    /** The unit one source is counted by: an IPv4 address, an IPv6 /64 (one host may hold a whole /64). */
    static InetAddress source(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return a;
        }
        byte[] b = Arrays.copyOf(a.getAddress(), 16);
        Arrays.fill(b, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 16 bytes are always an address
        }
    }
}
