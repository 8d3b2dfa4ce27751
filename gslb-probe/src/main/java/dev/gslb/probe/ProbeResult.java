package dev.gslb.probe;

/**
 * What a probe round found: which protocol got replies, the median round trip, the share of
 * samples answered (hundredths of a percent, 10000 = 100.00 %), and hops where the TTL was seen.
 * A round where no protocol got any reply has {@code protocol == null}: the LDNS is unprobeable.
 *
 * @param spreadMicros the replies' mean distance from their median (0 for one reply): how much this
 *                     round's own samples disagreed
 */
public record ProbeResult(
        ProbeProtocol protocol, long rttMicros, int completion, int hops, int sent, int replies, long spreadMicros) {
    public static ProbeResult unprobeable(int sent) {
        return new ProbeResult(null, -1, 0, 0, sent, 0, 0);
    }

    public boolean probeable() {
        return protocol != null;
    }

    /**
     * This round and {@code second}, a confirming round of the same protocol, as one round: their
     * medians and spreads weighed by their replies (the samples themselves are not kept), the
     * completion over the probes of both.
     */
    public ProbeResult and(ProbeResult second) {
        if (!second.probeable() || second.protocol != protocol) {
            throw new IllegalArgumentException("a confirming round of " + protocol + ", not " + second.protocol);
        }
        int n = replies + second.replies;
        int probes = sent + second.sent;
        return new ProbeResult(
                protocol,
                (rttMicros * replies + second.rttMicros * second.replies) / n,
                (int) (((long) completion * sent + (long) second.completion * second.sent) / probes),
                second.hops != 0 ? second.hops : hops,
                probes,
                n,
                (spreadMicros * replies + second.spreadMicros * second.replies) / n);
    }
}
