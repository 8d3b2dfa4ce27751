package dev.gslb.dns.dnssec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A KSK (or CSK) roll by double-KSK (RFC 7583 3.3.2): the new key is published and signs DNSKEY
 * at once beside the old one; CDS and CDNSKEY name the new key only once every cache can have it
 * (DNSKEY TTL + propagation-delay); the old key leaves only after the operator says the parent
 * has the new DS ({@code gslb dnssec submitted}) and the DS TTL + propagation-delay have passed.
 *
 * @param lifetime  how long a KSK signs before the next (0: only when an operator says)
 * @param ttls      the zone's TTLs
 * @param algorithm the zone's algorithm number
 * @param role      KSK, or CSK in a zone with {@code keys: csk}
 */
public record KskRoll(Duration lifetime, RollTtls ttls, int algorithm, KeyRole role) {
    /** The key the parent's DS should name now or next: the newest not leaving. */
    public KeyFile current(KeyTimeline t, Instant at) {
        List<KeyFile> live = t.live(role, at).stream()
                .filter(k -> k.timings().syncDelete() == null && k.timings().inactive() == null)
                .toList();
        return live.isEmpty() ? null : live.getLast();
    }

    /** The keys a roll replaces, still published until their DS is gone from every cache. */
    public List<KeyFile> leaving(KeyTimeline t, Instant at) {
        return t.live(role, at).stream()
                .filter(k -> k.timings().syncDelete() != null)
                .toList();
    }

    public boolean rolling(KeyTimeline t, Instant at) {
        return !leaving(t, at).isEmpty();
    }

    /** True while a roll waits for the operator's word that the parent has the new DS. */
    public boolean waitingForDs(KeyTimeline t, Instant at) {
        KeyFile current = current(t, at);
        return rolling(t, at) && current != null && current.timings().dsPublish() == null;
    }

    /** When the next roll starts by itself, or null (no lifetime, no key, or a roll going on). */
    public Instant due(KeyTimeline t, Instant at) {
        KeyFile current = current(t, at);
        if (lifetime.isZero() || current == null || rolling(t, at)) {
            return null;
        }
        return KeyTimeline.made(current).plus(lifetime);
    }

    /** The keys a roll started at {@code at} writes: the new key (not yet written) and the old ones' end of CDS. */
    public List<KeyFile> start(KeyTimeline t, Instant at) {
        if (rolling(t, at)) {
            throw new IllegalStateException(
                    "a " + role.word() + " roll is going on already: it ends after gslb dnssec submitted");
        }
        Instant named = at.plus(ttls.keyKnown());
        KeyFile next = KeyFile.generate(
                t.zone(), algorithm, KeyFile.KSK_FLAGS, new KeyTimings(at, at, at, null, null, named, null, null));
        List<KeyFile> out = new ArrayList<>(List.of(next));
        for (KeyFile old : t.live(role, at)) {
            if (old.timings().inactive() == null) {
                out.add(old.withTimings(old.timings().named(old.timings().syncPublish(), named)));
            }
        }
        return out;
    }

    /**
     * The keys the operator's word that the parent has the new DS writes: the new key's DSPublish,
     * the old keys' Inactive and Delete a DS TTL + propagation-delay later.
     */
    public List<KeyFile> submitted(KeyTimeline t, Instant at) {
        if (!waitingForDs(t, at)) {
            throw new IllegalStateException("no " + role.word() + " roll waits for the parent's DS"
                    + " (gslb dnssec roll ZONE ksk starts one)");
        }
        KeyFile next = current(t, at);
        Instant named =
                next.timings().syncPublish() == null ? at : next.timings().syncPublish();
        Instant retire = (at.isAfter(named) ? at : named).plus(ttls.dsKnown());
        List<KeyFile> out =
                new ArrayList<>(List.of(next.withTimings(next.timings().submitted(at))));
        for (KeyFile old : leaving(t, at)) {
            out.add(old.withTimings(old.timings().retiring(retire, retire)));
        }
        return out;
    }
}
