package dev.gslb.sync;

/**
 * Something each instance has one whole offer of, exchanged with its peers (the DNSSEC keys; the
 * runtime states travel the same way): what this instance offers, and what it does with what a
 * peer offers. Like the shared configuration, peer sync only carries it; the owner orders
 * generations, validates and decides what to adopt.
 */
public interface OfferExchange {
    /** What this instance has now (sent to every (re)connected peer and when published), or null. */
    Offer current();

    /**
     * A peer's offer: called for one peer at a time and in order, at most ten times a second per
     * peer (of a faster run, the newest; {@code OfferPacer}).
     */
    void received(String peer, Offer offer);

    /**
     * One instance's offer as exchanged.
     *
     * @param generation one more than the offer it replaced; the newer wins
     * @param origin     the instance where that change was made (ties: the greater name wins)
     * @param content    the content, as the owner encodes it (bounded by the wire)
     */
    record Offer(long generation, String origin, byte[] content) {
        public Offer {
            content = content == null ? new byte[0] : content;
        }
    }

    /** Nothing is exchanged (a peer-sync test without a server). */
    OfferExchange NONE = new OfferExchange() {
        @Override
        public Offer current() {
            return null;
        }

        @Override
        public void received(String peer, Offer offer) {}
    };
}
