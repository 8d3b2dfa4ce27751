package dev.gslb.dns.dnssec;

import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.xbill.DNS.CDSRecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSKEYRecord;
import org.xbill.DNS.DNSSEC;
import org.xbill.DNS.NSECRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.NameTooLongException;
import org.xbill.DNS.RRSIGRecord;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * Signs the RRsets of one zone with its keys (DNSKEY, CDS and CDNSKEY with the key-signing keys,
 * everything else with the zone-signing keys) and keeps each signature until its refresh time, so
 * an RRset is signed once per refresh whatever asks for it. A signature is valid from an hour
 * before it is made (clocks of validators differ) for {@code signature-validity}, and made again
 * when less than {@code signature-refresh} is left, less up to a tenth of that at random, so that
 * signatures made together do not all expire together. Signing is CPU work, never a wait: the
 * query path calls it when its own caches miss.
 */
public final class Signer {
    /** Signatures are valid from this long before they are made. */
    private static final long SKEW_MILLIS = ZoneKeys.CLOCK_TOLERANCE.toMillis();
    /** Entries before the cache starts again: it is refilled by the answers asked for. */
    private static final int MAX_CACHED = 50_000;
    /** RFC 9824's NXNAME meta type: in the NSEC of a name that does not exist. */
    public static final int NXNAME = 128;

    /** Where signatures made, signings that failed and signings the budget held back are counted (the metrics). */
    public interface Counts {
        Counts NONE = new Counts() {
            @Override
            public void made() {}

            @Override
            public void failed() {}

            @Override
            public void overBudget() {}
        };

        void made();

        void failed();

        void overBudget();
    }

    /** An RRset's signatures and when they must be made again (epoch milliseconds). */
    public record Signed(List<RRSIGRecord> signatures, long refreshAt, long expiresAt) {}

    private final ZoneKeys keys;
    private final long dnskeyTtl;
    private final RRset dnskeys;
    private final RRset cds;
    private final RRset cdnskey;
    private final LongSupplier clock;
    private final Counts counts;
    private final SigningBudget budget;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Signer.class);
    /** When a failure was last logged (epoch milliseconds); racy on purpose, it only spaces lines. */
    private volatile long loggedAt;

    private final ConcurrentHashMap<SetKey, Signed> cache = new ConcurrentHashMap<>();

    /**
     * @param keys      the zone's keys now
     * @param soaTtl    the SOA's TTL: DNSKEY's, CDS's and CDNSKEY's unless {@code dnskey-ttl} is set
     * @param clock     the time in epoch milliseconds
     * @param counts    where signatures are counted
     * @param budget    how many signings a second the query path may do, shared by every zone
     */
    public Signer(ZoneKeys keys, long soaTtl, LongSupplier clock, Counts counts, SigningBudget budget) {
        this.keys = keys;
        this.clock = clock;
        this.counts = counts;
        this.budget = budget;
        this.dnskeyTtl = keys.settings().dnskeyTtl() == null
                ? soaTtl
                : keys.settings().dnskeyTtl().toSeconds();
        this.dnskeys = new RRset();
        this.cds = new RRset();
        this.cdnskey = new RRset();
        for (SigningKey k : keys.keys()) {
            DNSKEYRecord d = k.dnskey();
            // the published records take the zone's DNSKEY TTL, whatever TTL the key file gave
            Record key = Record.newRecord(keys.zone(), Type.DNSKEY, DClass.IN, dnskeyTtl, d.rdataToWireCanonical());
            if (k.published()) {
                dnskeys.addRR(key);
            }
            if (k.cds()) {
                cdnskey.addRR(
                        Record.newRecord(keys.zone(), Type.CDNSKEY, DClass.IN, dnskeyTtl, d.rdataToWireCanonical()));
                cds.addRR(new CDSRecord(keys.zone(), DClass.IN, dnskeyTtl, DNSSEC.Digest.SHA256, (DNSKEYRecord) key));
            }
        }
    }

    public ZoneKeys keys() {
        return keys;
    }

    public Name zone() {
        return keys.zone();
    }

    /** The zone's DNSKEY RRset (the published keys). */
    public RRset dnskeys() {
        return dnskeys;
    }

    /** The CDS RRset, or null when no key is named for the parent. */
    public RRset cds() {
        return cds.size() == 0 ? null : cds;
    }

    /** The CDNSKEY RRset, or null. */
    public RRset cdnskey() {
        return cdnskey.size() == 0 ? null : cdnskey;
    }

    /** The types the apex holds besides the zone file's: DNSKEY, and CDS and CDNSKEY when published. */
    public int[] apexTypes() {
        return cds.size() == 0 ? new int[] {Type.DNSKEY} : new int[] {Type.DNSKEY, Type.CDS, Type.CDNSKEY};
    }

    /**
     * The signatures of {@code set}, from the cache while they are fresh, else made now. When
     * signing fails the previous signatures serve while they are valid; else none (the answer goes
     * out unsigned and a validator treats it as bogus, which the failure count shows). Null when
     * the {@link SigningBudget} holds the signing back and no valid previous signatures are kept:
     * the answer must not go out.
     */
    public Signed sign(RRset set) {
        long now = clock.getAsLong();
        SetKey key = SetKey.of(set);
        Signed cached = cache.get(key);
        if (cached != null && cached.refreshAt > now) {
            return cached;
        }
        if (!budgeted()) {
            return cached != null && cached.expiresAt > now ? cached : null;
        }
        Signed fresh = make(set, now, cached);
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(key, fresh);
        return fresh;
    }

    /**
     * The signatures of the NSEC of a name that does not exist, made each time the budget allows
     * (else null): such names are without number, and kept here they would only push the zone's own
     * signatures out. The answer that carries them is kept in the answer cache's negative part.
     */
    public Signed signDenial(RRset nsec) {
        return budgeted() ? make(nsec, clock.getAsLong(), null) : null;
    }

    /** Whether the budget lets one more signing go ahead; one it holds back is counted. */
    private boolean budgeted() {
        if (budget.take()) {
            return true;
        }
        counts.overBudget();
        return false;
    }

    private Signed make(RRset set, long now, Signed previous) {
        if (ZoneKeys.clockBehind(Instant.ofEpochMilli(now), keys.notBefore())) {
            // a clock far behind makes signatures validators reject (expired); keep what was made
            return failed(
                    now,
                    previous,
                    "the clock says " + Instant.ofEpochMilli(now) + ", before the newest key was made ("
                            + keys.notBefore() + "): it is far off");
        }
        boolean keySet = set.getType() == Type.DNSKEY || set.getType() == Type.CDS || set.getType() == Type.CDNSKEY;
        long validity = keys.settings().signatureValidity().toMillis();
        long refresh = keys.settings().signatureRefresh().toMillis();
        Instant inception = Instant.ofEpochMilli(now - SKEW_MILLIS);
        Instant expiration = Instant.ofEpochMilli(now + validity);
        List<RRSIGRecord> signatures = new ArrayList<>(2);
        try {
            for (SigningKey k : keys.keys()) {
                if (keySet ? k.signsKeys() : k.signsZone()) {
                    signatures.add(DNSSEC.sign(set, k.dnskey(), k.privateKey(), inception, expiration));
                    counts.made();
                }
            }
        } catch (DNSSEC.DNSSECException | RuntimeException e) {
            return failed(now, previous, e.toString());
        }
        long jitter = ThreadLocalRandom.current().nextLong(Math.max(1, refresh / 10));
        long expires = expiration.toEpochMilli();
        return new Signed(List.copyOf(signatures), expires - refresh - jitter, expires);
    }

    /** A signing that failed: counted, logged once a minute at most (a key that cannot sign fails every RRset). */
    private Signed failed(long now, Signed previous, String why) {
        counts.failed();
        if (now - loggedAt > 60_000 || now < loggedAt) {
            loggedAt = now;
            log.warn(
                    "dnssec: zone {}: a signature could not be made ({}); the previous one is served while valid",
                    keys.zone(),
                    why);
        }
        if (previous != null && previous.expiresAt > now) {
            return previous;
        }
        return new Signed(List.of(), now + 60_000, now + 60_000); // tried again in a minute
    }

    /**
     * The NSEC record of compact denial (RFC 9824) at {@code owner}: the next name is the
     * smallest name after it ({@code \000.owner}), so it covers no other name, and {@code types}
     * are what the name holds (for a name that does not exist: NXNAME).
     */
    public static NSECRecord nsec(Name owner, int[] types, long ttl) {
        Name next;
        try {
            next = Name.concatenate(ZERO, owner);
        } catch (NameTooLongException e) {
            next = owner; // a name of 254 bytes has no longer successor; the proof is the owner's bitmap
        }
        return new NSECRecord(owner, DClass.IN, ttl, next, types);
    }

    private static final Name ZERO = Name.fromConstantString("\\000");

    /** An RRset's identity for the cache: owner, type, TTL and data in canonical form. */
    private static final class SetKey {
        private final byte[] bytes;
        private final int hash;

        private SetKey(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        static SetKey of(RRset set) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(128);
            out.writeBytes(set.getName().toWireCanonical());
            long ttl = set.getTTL();
            out.write(set.getType() >>> 8);
            out.write(set.getType());
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (ttl >>> shift));
            }
            List<byte[]> data = new ArrayList<>();
            for (Record r : set.rrs(false)) {
                data.add(r.rdataToWireCanonical());
            }
            data.sort(Arrays::compareUnsigned);
            for (byte[] d : data) {
                out.write(d.length >>> 8);
                out.write(d.length);
                out.writeBytes(d);
            }
            return new SetKey(out.toByteArray());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SetKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
