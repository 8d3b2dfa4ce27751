package dev.gslb.dns.dnssec;

import dev.gslb.dns.zone.DnssecSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.xbill.DNS.Name;

/**
 * The keys of one signed zone at one moment, with its settings: immutable; a roll step or a key
 * from a peer makes a new one, swapped in whole ({@link KeyRing}).
 *
 * @param zone     the zone's origin
 * @param settings the zone's {@code dnssec:} entry
 * @param keys     every key published, signing or kept for a roll
 * @param notBefore a time the clock has surely passed: the newest key's creation (EPOCH: none
 *                  known); a clock before it is far off, and signing stops ({@link Signer})
 */
public record ZoneKeys(Name zone, DnssecSettings settings, List<SigningKey> keys, Instant notBefore) {
    public ZoneKeys {
        keys = List.copyOf(keys);
    }

    public ZoneKeys(Name zone, DnssecSettings settings, List<SigningKey> keys) {
        this(zone, settings, keys, Instant.EPOCH);
    }

    /** As far as signatures reach back before they are made: a clock further behind a key's creation is off. */
    public static final Duration CLOCK_TOLERANCE = Duration.ofHours(1);

    /** Whether {@code now} is far before {@code notBefore}: the clock went back, or is far off. */
    public static boolean clockBehind(Instant now, Instant notBefore) {
        return now.plus(CLOCK_TOLERANCE).isBefore(notBefore);
    }

    /** The keys that sign every RRset but DNSKEY, CDS and CDNSKEY. */
    public List<SigningKey> zoneSigning() {
        return keys.stream().filter(SigningKey::signsZone).toList();
    }

    /** The keys that sign DNSKEY, CDS and CDNSKEY. */
    public List<SigningKey> keySigning() {
        return keys.stream().filter(SigningKey::signsKeys).toList();
    }

    /** True when the zone can be signed: some key signs the zone and some signs the keys. */
    public boolean complete() {
        return keys.stream().anyMatch(SigningKey::signsZone) && keys.stream().anyMatch(SigningKey::signsKeys);
    }
}
