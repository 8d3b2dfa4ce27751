package dev.gslb.dns.dnssec;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A ZSK roll by pre-publication (RFC 7583 3.2.1): the new ZSK is published, not signing; once every
 * cache can have it (DNSKEY TTL + propagation-delay) it signs and the old one stops, still
 * published; once no cache can hold the old one's signatures (the zone's largest TTL +
 * propagation-delay) the old one leaves. Every step is a timing written when the roll starts.
 *
 * @param lifetime  how long a ZSK signs before the next (0: only when an operator says)
 * @param ttls      the zone's TTLs
 * @param algorithm the zone's algorithm number
 */
public record ZskRoll(Duration lifetime, RollTtls ttls, int algorithm) {
    /** The ZSK that signs now or will, not yet given a successor; null when there is none. */
    public KeyFile current(KeyTimeline t, Instant at) {
        List<KeyFile> live = t.live(KeyRole.ZSK, at).stream()
                .filter(k -> k.timings().inactive() == null)
                .toList();
        return live.isEmpty() ? null : live.getLast();
    }

    /** True while an old ZSK waits to stop signing or to leave. */
    public boolean rolling(KeyTimeline t, Instant at) {
        return t.live(KeyRole.ZSK, at).stream().anyMatch(k -> k.timings().inactive() != null);
    }

    /** When the next roll starts by itself, or null (no lifetime, no ZSK, or a roll going on). */
    public Instant due(KeyTimeline t, Instant at) {
        KeyFile current = current(t, at);
        if (lifetime.isZero() || current == null || rolling(t, at)) {
            return null;
        }
        return KeyTimeline.made(current).plus(lifetime).minus(ttls.keyKnown());
    }

    /** The keys a roll started at {@code at} writes: the new ZSK (not yet written) and the old one retiring. */
    public List<KeyFile> start(KeyTimeline t, Instant at) {
        if (rolling(t, at)) {
            throw new IllegalStateException("a ZSK roll is going on already");
        }
        KeyFile old = current(t, at);
        Instant activate = at.plus(ttls.keyKnown());
        KeyFile next = KeyFile.generate(
                t.zone(), algorithm, KeyFile.ZSK_FLAGS, new KeyTimings(at, at, activate, null, null, null, null, null));
        if (old == null) {
            return List.of(next);
        }
        Instant oldActivate = KeyTimeline.made(old);
        Instant inactive = activate.isBefore(oldActivate) ? oldActivate : activate;
        return List.of(
                next.withTimings(next.timings().with("Activate", inactive)),
                old.withTimings(old.timings().retiring(inactive, inactive.plus(ttls.signaturesGone()))));
    }
}
