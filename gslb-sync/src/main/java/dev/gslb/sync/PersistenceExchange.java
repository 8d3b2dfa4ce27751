package dev.gslb.sync;

import java.util.function.Consumer;

/**
 * The persistence table's side of peer sync (wide IPs with a persistence-ttl): which server a
 * client network was answered with, told to the peers so both instances answer it alike.
 */
public interface PersistenceExchange {
    /**
     * One remembered answer: the network in the 128-bit form, the server by name, until when. An
     * empty server name: the sender's operator cleared that entry (gslb persist clear); the
     * receiver removes its own.
     */
    record Persisted(String wideIp, long hi, long lo, String server, long expiresAt) {}

    /** A peer's entry (its expiry already bounded by the peer's clock skew allowance). */
    void received(Persisted p);

    /** Every live entry, for a (re)connected peer. */
    void forEachLive(Consumer<Persisted> out);

    PersistenceExchange NONE = new PersistenceExchange() {
        @Override
        public void received(Persisted p) {}

        @Override
        public void forEachLive(Consumer<Persisted> out) {}
    };
}
