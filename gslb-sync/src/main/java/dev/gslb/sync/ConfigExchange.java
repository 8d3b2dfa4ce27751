package dev.gslb.sync;

/**
 * The shared configuration's side of peer sync: what this instance offers its peers, and what it
 * does with what a peer offers. Peer sync only carries it; the owner decides, validates, applies
 * and persists.
 */
public interface ConfigExchange {
    /** What this instance serves now, with its content; sent to every (re)connected peer. */
    Offer current();

    /** Only which configuration this instance serves, for the heartbeats: no content is made. */
    default Offer state() {
        Offer o = current();
        return o == null ? null : o.stateOnly();
    }

    /**
     * A peer's configuration, or its state only ({@code bundle} empty): called on the receiving
     * thread of that peer's connection.
     */
    void received(String peer, Offer offer);

    /**
     * One instance's configuration as exchanged.
     *
     * @param sync    false when that instance opted out (config.sync: false): its changes are not taken
     * @param refusal why that instance refused the configuration {@code refused}, or empty
     * @param bundle  the shared configuration's content, or empty when only the state is told
     */
    record Offer(ConfigVersion version, boolean sync, ConfigVersion refused, String refusal, byte[] bundle) {
        public Offer {
            refusal = refusal == null ? "" : refusal;
            bundle = bundle == null ? new byte[0] : bundle;
        }

        public Offer stateOnly() {
            return new Offer(version, sync, refused, refusal, new byte[0]);
        }
    }

    /** No configuration is exchanged (a peer-sync test without a server). */
    ConfigExchange NONE = new ConfigExchange() {
        @Override
        public Offer current() {
            return null;
        }

        @Override
        public void received(String peer, Offer offer) {}
    };
}
