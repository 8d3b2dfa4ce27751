package dev.gslb.sync;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * How often a peer's offers of one kind reach their owner: at most every {@value #INTERVAL_MILLIS}
 * ms per peer, the first at once and, of a faster run, only the newest, at the end of the interval.
 * Each offer is all of the peer's states (or keys), so one replaced before it was handed on loses
 * nothing. An offer costs the owner a parse of up to {@link OfferKind#maxBytes} bytes, so a
 * compromised peer sending them as fast as its item rate allows costs this instance at most ten of
 * those a second, not one per item. Calls for one peer never overlap and keep its order.
 */
final class OfferPacer {
    static final long INTERVAL_MILLIS = 100;
    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS);

    private final OfferKind kind;
    private final BiConsumer<String, OfferExchange.Offer> owner;
    private final Map<String, Pace> peers = new ConcurrentHashMap<>();
    private final Counter superseded;
    private volatile boolean closed;

    /** One peer's pace: when its last offer was handed on, and the newest one waiting for the end of the interval. */
    private static final class Pace {
        long handedAt = System.nanoTime() - INTERVAL_NANOS;
        OfferExchange.Offer waiting;
    }

    OfferPacer(OfferKind kind, BiConsumer<String, OfferExchange.Offer> owner, MeterRegistry registry) {
        this.kind = kind;
        this.owner = owner;
        this.superseded = Counter.builder("sync_" + kind.metric + "_superseded")
                .description("Offers of " + kind.what + " from peers replaced by a newer one before they were applied"
                        + " (a peer sent them faster than 10 a second)")
                .register(registry);
    }

    /** A peer's offer, on its connection's receiving thread: handed on now, or at the end of the interval. */
    void received(String peer, OfferExchange.Offer offer) {
        Pace p = peers.computeIfAbsent(peer, k -> new Pace());
        synchronized (p) {
            if (p.waiting != null) {
                p.waiting = offer; // the one waiting is older: this replaces it
                superseded.increment();
                return;
            }
            long since = System.nanoTime() - p.handedAt;
            if (since >= INTERVAL_NANOS) {
                hand(peer, p, offer);
            } else {
                p.waiting = offer;
                Thread.ofVirtual()
                        .name("sync-" + kind.metric + "-" + peer)
                        .start(() -> later(peer, p, INTERVAL_NANOS - since));
            }
        }
    }

    private void later(String peer, Pace p, long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            return;
        }
        synchronized (p) {
            OfferExchange.Offer o = p.waiting;
            p.waiting = null;
            if (o != null && !closed && peers.get(peer) == p) {
                hand(peer, p, o);
            }
        }
    }

    /** Called holding {@code p}: a peer's offers reach the owner one at a time, in order. */
    private void hand(String peer, Pace p, OfferExchange.Offer o) {
        p.handedAt = System.nanoTime();
        owner.accept(peer, o);
    }

    /** The peer was removed: what it has waiting is not handed on. */
    void forget(String peer) {
        peers.remove(peer);
    }

    void close() {
        closed = true;
    }
}
