package dev.gslb.sync;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of whole offer between this instance and its peers: its owner's current offer goes to
 * every (re)connected peer and, when published, to every connected one; a peer's offers reach the
 * owner through an {@link OfferPacer}. Used once per {@link OfferKind} (runtime states, DNSSEC
 * keys): the frame type and the bound come from the kind, the rest is the same.
 */
final class OfferChannel {
    private static final Logger log = LoggerFactory.getLogger(OfferChannel.class);

    final OfferKind kind;
    /** Set once, before the first connection. */
    volatile OfferExchange owner = OfferExchange.NONE;

    private final OfferPacer pacer;
    private final LoggedOnce logged = new LoggedOnce();

    OfferChannel(OfferKind kind, MeterRegistry registry) {
        this.kind = kind;
        this.pacer = new OfferPacer(kind, (peer, offer) -> owner.received(peer, offer), registry);
    }

    /**
     * What the owner offers now as an item, or null: none, or more than the wire carries (a peer
     * would close the connection at it; logged once instead).
     */
    Item.OfferItem current() {
        OfferExchange.Offer o = owner.current();
        if (o == null) {
            return null;
        }
        int origin = o.origin().getBytes(StandardCharsets.UTF_8).length;
        if (o.content().length > kind.maxBytes || origin > Hello.MAX_NAME || o.generation() < 0) {
            if (logged.first(kind + " " + o.generation())) {
                log.warn(
                        "{} generation {} not sent to peers: {} bytes from {} (at most {} from a name of at most {})",
                        kind.what,
                        o.generation(),
                        o.content().length,
                        o.origin(),
                        kind.maxBytes,
                        Hello.MAX_NAME);
            }
            return null;
        }
        return new Item.OfferItem(kind, o);
    }

    /** A peer's offer, on its connection's receiving thread: paced on to the owner. */
    void received(String peer, OfferExchange.Offer offer) {
        pacer.received(peer, offer);
    }

    void forget(String peer) {
        pacer.forget(peer);
    }

    void close() {
        pacer.close();
    }
}
