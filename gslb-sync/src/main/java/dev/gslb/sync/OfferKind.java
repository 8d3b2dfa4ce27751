package dev.gslb.sync;

/**
 * A kind of whole offer peers exchange, one to a frame of its own type: each instance has one
 * offer of it at a time, all of it, and a newer one replaces it (see {@link OfferExchange}). The
 * kind decides the frame, the bound on the content, and its words in refusals, logs and metrics.
 */
enum OfferKind {
    /** What operators disabled, drained or enabled at run time. */
    RUNTIME_STATES(Wire.Type.RUNTIME, Wire.MAX_RUNTIME_STATES, "runtime states", "runtime-state", "runtime_states"),
    /** The DNSSEC signing keys, so both instances of a pair sign with the keys the parent's DS trusts. */
    KEYS(Wire.Type.KEYS, Wire.MAX_KEYS, "keys", "key", "keys");

    final Wire.Type type;
    /** The most content bytes an offer of this kind carries. */
    final int maxBytes;
    /** The content in a sentence ("runtime states of 10 bytes"). */
    final String what;
    /** One item of it ("2 runtime-state items in a frame"). */
    final String item;
    /** In metric names ({@code sync_<metric>_superseded}). */
    final String metric;

    OfferKind(Wire.Type type, int maxBytes, String what, String item, String metric) {
        this.type = type;
        this.maxBytes = maxBytes;
        this.what = what;
        this.item = item;
        this.metric = metric;
    }

    /** The kind a frame of {@code type} carries, or null when it carries none. */
    static OfferKind of(Wire.Type type) {
        for (OfferKind k : values()) {
            if (k.type == type) {
                return k;
            }
        }
        return null;
    }
}
