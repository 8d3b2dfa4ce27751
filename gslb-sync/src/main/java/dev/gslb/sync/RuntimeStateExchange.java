package dev.gslb.sync;

/**
 * The runtime states' side of peer sync (what operators disabled, drained or enabled at run time):
 * what this instance offers its peers, and what it does with what a peer offers. Like the shared
 * configuration, peer sync only carries it; the owner orders generations, validates and applies.
 * It travels as an {@link OfferExchange} does (the DNSSEC keys'); this interface keeps its own
 * offer type, whose content is named {@code states}.
 */
public interface RuntimeStateExchange {
    /** What this instance serves now (sent to every (re)connected peer and after each change), or null. */
    Offer current();

    /**
     * A peer's states: called for one peer at a time and in order, at most ten times a second per
     * peer (of a faster run, the newest; {@code OfferPacer}).
     */
    void received(String peer, Offer offer);

    /**
     * One instance's runtime states as exchanged.
     *
     * @param generation one more than the states it replaced; the newer wins
     * @param origin     the instance where that change was made (ties: the greater name wins)
     * @param states     the states' content, as the owner encodes it (bounded by the wire)
     */
    record Offer(long generation, String origin, byte[] states) {
        public Offer {
            states = states == null ? new byte[0] : states;
        }
    }

    /** No runtime states are exchanged (a peer-sync test without a server). */
    RuntimeStateExchange NONE = new RuntimeStateExchange() {
        @Override
        public Offer current() {
            return null;
        }

        @Override
        public void received(String peer, Offer offer) {}
    };
}
