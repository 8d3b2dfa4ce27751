package dev.gslb.dns.answer;

import java.security.SecureRandom;
import org.xbill.DNS.Name;

/**
 * Domain names as uncompressed wire bytes, read straight from a packet: a case-insensitive hash
 * and comparison that copy nothing, so the answer cache, the wide-IP table and the rate limiter
 * can key on the question without building a {@link Name}. Hand-written because the query path
 * must not allocate.
 */
final class WireName {
    /** Random per process, so nobody can choose names that collide in our tables. */
    private static final long SEED = new SecureRandom().nextLong();

    private WireName() {}

    /** The case-insensitive hash of the uncompressed name at {@code [from, to)}. */
    static long hash(byte[] b, int from, int to) {
        long h = SEED;
        for (int i = from; i < to; i++) {
            h = (h ^ lower(b[i])) * 0x100000001b3L; // FNV-1a step
        }
        return mix(h);
    }

    static long hash(Name name) {
        byte[] wire = name.toWireCanonical();
        return hash(wire, 0, wire.length);
    }

    /** A strong final mix (MurmurHash3's fmix64), so every bit of the result depends on every input bit. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /**
     * True when {@code lowered} (a lower-case wire name) equals the name at {@code b[from, from +
     * lowered.length)} ignoring ASCII case. Length bytes are never letters (labels are at most 63
     * long), so comparing every byte case-insensitively is exact.
     */
    static boolean matches(byte[] lowered, byte[] b, int from, int to) {
        if (to - from != lowered.length) {
            return false;
        }
        for (int i = 0; i < lowered.length; i++) {
            if (lowered[i] != lower(b[from + i])) {
                return false;
            }
        }
        return true;
    }

    /** The lower-cased copy of the name at {@code [from, to)}. */
    static byte[] lowerCopy(byte[] b, int from, int to) {
        byte[] c = new byte[to - from];
        for (int i = 0; i < c.length; i++) {
            c[i] = lower(b[from + i]);
        }
        return c;
    }

    private static byte lower(byte c) {
        return c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
    }
}
