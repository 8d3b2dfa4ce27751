package dev.gslb.dns.dnssec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.Name;

/**
 * The keys of one zone along time: what each key does at an instant, from its timings alone
 * (RFC 7583's states, as BIND reads its timing lines), and the next instant something changes.
 *
 * @param zone    the zone's origin
 * @param keys    every key of the zone, whatever its state
 * @param cskZone the zone has {@code keys: csk}
 */
public record KeyTimeline(Name zone, List<KeyFile> keys, boolean cskZone) {
    public KeyTimeline {
        keys = List.copyOf(keys);
    }

    /** A key's state at an instant. */
    public enum State {
        /** Made, not yet in the DNSKEY RRset. */
        WAITING,
        /** In the DNSKEY RRset, not signing (a ZSK pre-published, or retired and still published). */
        PUBLISHED,
        /** In the DNSKEY RRset and signing. */
        ACTIVE,
        /** Signs no more and is still published so caches can check its signatures. */
        RETIRED,
        /** Out of the DNSKEY RRset. */
        REMOVED;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A change to come: the instant, the key and which of its timings. */
    public record Event(Instant at, KeyFile key, String timing) {}

    public static boolean published(KeyTimings t, Instant at) {
        return before(t.publish(), at) && after(t.delete(), at);
    }

    public static boolean active(KeyTimings t, Instant at) {
        return published(t, at) && before(t.activate(), at) && after(t.inactive(), at);
    }

    /**
     * Named by CDS and CDNSKEY: a KSK or CSK in its SyncPublish..SyncDelete window; one without
     * SyncPublish (the first key, or one of BIND's) while it is active and before its SyncDelete.
     */
    public static boolean cds(KeyFile k, Instant at) {
        KeyTimings t = k.timings();
        if (!k.secureEntryPoint() || !published(t, at)) {
            return false;
        }
        boolean from = t.syncPublish() == null ? active(t, at) : before(t.syncPublish(), at);
        return from && after(t.syncDelete(), at);
    }

    public State state(KeyFile k, Instant at) {
        KeyTimings t = k.timings();
        if (!before(t.publish(), at)) {
            return State.WAITING;
        }
        if (!after(t.delete(), at)) {
            return State.REMOVED;
        }
        if (active(t, at)) {
            return State.ACTIVE;
        }
        return t.inactive() != null && !t.inactive().isAfter(at) ? State.RETIRED : State.PUBLISHED;
    }

    public KeyRole role(KeyFile k) {
        return KeyRole.of(k, cskZone);
    }

    /** The keys of the zone's DNSKEY RRset at {@code at}, as the query path signs with them. */
    public List<SigningKey> signing(Instant at, long dnskeyTtl) {
        List<SigningKey> out = new ArrayList<>();
        for (KeyFile k : keys) {
            KeyTimings t = k.timings();
            if (!published(t, at)) {
                continue;
            }
            boolean active = active(t, at);
            KeyRole role = role(k);
            DNSKEYRecord r = new DNSKEYRecord(
                    k.zone(),
                    DClass.IN,
                    dnskeyTtl,
                    k.dnskey().getFlags(),
                    k.dnskey().getProtocol(),
                    k.algorithm(),
                    k.dnskey().getKey());
            out.add(new SigningKey(
                    r, k.privateKey(), true, active && role.signsZone(), active && role.signsKeys(), cds(k, at)));
        }
        return out;
    }

    /** The next timing after {@code at} of any key, or null when none is set. */
    public Event next(Instant at) {
        Event next = null;
        for (KeyFile k : keys) {
            for (var e : k.timings().byTag().entrySet()) {
                if (e.getValue().isAfter(at) && (next == null || e.getValue().isBefore(next.at()))) {
                    next = new Event(e.getValue(), k, e.getKey());
                }
            }
        }
        return next;
    }

    /** The keys of {@code role} not yet removed at {@code at}, the latest made last. */
    public List<KeyFile> live(KeyRole role, Instant at) {
        return keys.stream()
                .filter(k -> role(k) == role && state(k, at) != State.REMOVED)
                .sorted(Comparator.comparing(KeyTimeline::made))
                .toList();
    }

    /** When the key began: Activate, else Publish, else Created (else the epoch: BIND's keys without timings). */
    public static Instant made(KeyFile k) {
        KeyTimings t = k.timings();
        return t.activate() != null
                ? t.activate()
                : t.publish() != null ? t.publish() : t.created() != null ? t.created() : Instant.EPOCH;
    }

    private static boolean before(Instant from, Instant at) {
        return from == null || !from.isAfter(at);
    }

    private static boolean after(Instant until, Instant at) {
        return until == null || at.isBefore(until);
    }
}
