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
}
