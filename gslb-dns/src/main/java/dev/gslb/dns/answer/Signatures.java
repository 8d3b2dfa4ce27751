package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.dnssec.SigningBudget;
import dev.gslb.dns.dnssec.ZoneKeys;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.Zones;
import dev.gslb.topology.Address;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSInput;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRSIGRecord;
import org.xbill.DNS.RRset;

/**
 * The signers of the zones signed now, and the signatures of wide-IP answers. A wide IP's answer
 * is made per query, but it has few distinct address sets, so each set's signature is kept in a
 * fixed table by a hash of owner, type, TTL and the addresses in any order; a hit compares them
 * exactly (the owner against the packet's bytes) and allocates nothing. A miss (a new set, an
 * expiring signature, a collision) signs through the zone's {@link Signer}.
 */
final class Signatures {
    static final Signatures NONE = new Signatures();

    /** Slots of the answer table: a power of two. */
    private static final int SLOTS = 4096;

    private record Entry(
            long key,
            byte[] owner,
            int type,
            long ttl,
            long[] hi,
            long[] lo,
            int count,
            byte[] target,
            byte[][] rdata,
            long refreshAt) {}

    private final IdentityHashMap<Zone, Signer> signers = new IdentityHashMap<>();
    private final AtomicReferenceArray<Entry> answers;

    private Signatures() {
        answers = new AtomicReferenceArray<>(1);
    }

    Signatures(Zones zones, KeyRing ring, LongSupplier clock, Signer.Counts counts, SigningBudget budget) {
        for (Zone z : zones.all()) {
            ZoneKeys keys = ring.of(z.origin());
            if (z.dnssec() != null && keys != null && keys.complete()) {
                signers.put(z, new Signer(keys, z.soa().getTTL(), clock, counts, budget));
            }
        }
        answers = new AtomicReferenceArray<>(signers.isEmpty() ? 1 : SLOTS);
    }

    /** The signer of {@code zone}, or null. */
    Signer of(Zone zone) {
        return signers.isEmpty() ? null : signers.get(zone);
    }

    /** Every signer, for status and metrics. */
    java.util.Collection<Signer> all() {
        return signers.values();
    }

    /**
     * The RRSIG rdata for the reply's addresses (or its CNAME pool's alias), owned by the
     * question's name when {@code owner} is null, else by {@code owner}, signed by {@code signer};
     * null when the signing budget holds a new signature back.
     */
    byte[][] of(Signer signer, Reply r, QueryView q, Name owner, long nowMillis) {
        byte[] ownerBytes;
        int from;
        int to;
        long nameHash;
        if (owner == null) {
            ownerBytes = q.buf;
            from = QueryView.HEADER;
            to = q.qnameEnd;
            nameHash = q.qnameHash;
        } else {
            ownerBytes = owner.toWireCanonical();
            from = 0;
            to = ownerBytes.length;
            nameHash = WireName.hash(ownerBytes, 0, to);
        }
        long key = key(nameHash, r);
        int slot = (int) key & (answers.length() - 1);
        Entry e = answers.get(slot);
        if (e != null && e.key == key && e.refreshAt > nowMillis && same(e, ownerBytes, from, to, r)) {
            return e.rdata;
        }
        return sign(signer, r, ownerBytes, from, to, key, slot);
    }

    private byte[][] sign(Signer signer, Reply r, byte[] ownerBytes, int from, int to, long key, int slot) {
        Name name;
        try {
            DNSInput in = new DNSInput(ByteBuffer.wrap(ownerBytes, 0, to));
            in.jump(from);
            name = new Name(in);
        } catch (IOException e) {
            return null; // the guard read the name: cannot happen
        }
        RRset set = new RRset();
        try {
            if (r.kind == Reply.Kind.CNAME) {
                set.addRR(new CNAMERecord(name, DClass.IN, r.ttl, new Name(r.target)));
            } else {
                for (int i = 0; i < r.count; i++) {
                    set.addRR(record(name, r.ttl, r.hi[i], r.lo[i]));
                }
            }
        } catch (IOException e) {
            return null;
        }
        Signer.Signed signed = signer.sign(set);
        if (signed == null) {
            return null; // over the signing budget
        }
        List<RRSIGRecord> sigs = signed.signatures();
        byte[][] rdata = new byte[sigs.size()][];
        for (int i = 0; i < rdata.length; i++) {
            rdata[i] = sigs.get(i).rdataToWireCanonical();
        }
        answers.set(
                slot,
                new Entry(
                        key,
                        WireName.lowerCopy(ownerBytes, from, to),
                        r.type,
                        r.ttl,
                        java.util.Arrays.copyOf(r.hi, r.count),
                        java.util.Arrays.copyOf(r.lo, r.count),
                        r.count,
                        r.kind == Reply.Kind.CNAME ? r.target : null,
                        rdata,
                        signed.refreshAt()));
        return rdata;
    }

    private static org.xbill.DNS.Record record(Name name, long ttl, long hi, long lo) throws UnknownHostException {
        if (Address.ipv4(hi, lo)) {
            int v = (int) lo;
            return new ARecord(name, DClass.IN, ttl, InetAddress.getByAddress(new byte[] {
                (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v
            }));
        }
        byte[] b = ByteBuffer.allocate(16).putLong(hi).putLong(lo).array();
        return new AAAARecord(name, DClass.IN, ttl, InetAddress.getByAddress(b));
    }

    /** The table key: owner, type, TTL and the addresses (or alias), the addresses in any order. */
    private static long key(long nameHash, Reply r) {
        long h = nameHash ^ (r.type * 0x9E3779B97F4A7C15L) ^ (r.ttl * 0xC2B2AE3D27D4EB4FL);
        if (r.kind == Reply.Kind.CNAME) {
            return WireName.mix(h ^ WireName.hash(r.target, 0, r.target.length));
        }
        long sum = 0;
        for (int i = 0; i < r.count; i++) {
            sum += WireName.mix(r.hi[i] * 31 + r.lo[i]);
        }
        return WireName.mix(h ^ sum ^ r.count);
    }

    private static boolean same(Entry e, byte[] owner, int from, int to, Reply r) {
        if (e.type != r.type || e.ttl != r.ttl || !WireName.matches(e.owner, owner, from, to)) {
            return false;
        }
        if (r.kind == Reply.Kind.CNAME) {
            return e.target != null && java.util.Arrays.equals(e.target, r.target);
        }
        if (e.target != null || e.count != r.count) {
            return false;
        }
        for (int i = 0; i < r.count; i++) { // a set: every address of the reply is in the entry (a few at most)
            boolean found = false;
            for (int j = 0; j < e.count && !found; j++) {
                found = e.hi[j] == r.hi[i] && e.lo[j] == r.lo[i];
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }
}
