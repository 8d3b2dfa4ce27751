package dev.gslb.dns.cookie;

import dev.gslb.topology.Address;
import java.security.SecureRandom;
import java.time.Duration;
import org.bouncycastle.crypto.macs.SipHash;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * DNS server cookies (RFC 7873) in the interoperable form of RFC 9018: version 1, three reserved
 * bytes, a 32-bit timestamp, and SipHash-2-4 of client cookie | version | reserved | timestamp |
 * client address under a 128-bit secret. A resolver that sends the cookie we gave it proves it
 * receives our answers at its address, so it is not a spoofed source (it is exempt from rate
 * limiting). The secret lives in memory, is made at start and rotated every {@code rotation}; a
 * cookie made with the previous secret is still accepted, so a rotation costs nobody an answer.
 */
public final class ServerCookies {
    public static final int CLIENT_COOKIE = 8;
    public static final int SERVER_COOKIE = 16;
    public static final Duration DEFAULT_ROTATION = Duration.ofDays(1);
    private static final int VERSION = 1;
    /** RFC 9018 4.3: older than an hour or more than five minutes ahead is not valid. */
    private static final long MAX_AGE = 3600;

    private static final long MAX_AHEAD = 300;

    private record Secrets(byte[] current, byte[] previous, long generation, long rotateAt) {}

    /** One thread's hashers (SipHash keeps state) and input buffer: no allocation per cookie. */
    private static final class Hasher {
        final SipHash current = new SipHash(2, 4);
        final SipHash previous = new SipHash(2, 4);
        final byte[] input = new byte[CLIENT_COOKIE + 8 + 16];
        final byte[] hash = new byte[8];
        long generation = -1;
    }

    private final Duration rotation;
    private final SecureRandom random = new SecureRandom();
    private final ThreadLocal<Hasher> hashers = ThreadLocal.withInitial(Hasher::new);
    private volatile Secrets secrets;

    /**
     * Cookies whose secret is new every {@code rotation}, the first one from {@code nowSeconds}.
     * Every call takes the time of the query it answers (the caller reads the clock once for a
     * batch of queries: a clock read costs as much as a hash here).
     */
    public ServerCookies(Duration rotation, long nowSeconds) {
        if (rotation.compareTo(Duration.ofHours(1)) < 0) {
            throw new IllegalArgumentException(
                    "the cookie secret rotation must be at least 1h (a cookie lives an hour)");
        }
        this.rotation = rotation;
        byte[] first = fresh();
        this.secrets = new Secrets(first, first, 0, nowSeconds + rotation.toSeconds());
    }

    /** A fixed secret (RFC 9018's test vectors, tests); never rotated. */
    static ServerCookies withSecret(byte[] secret) {
        ServerCookies c = new ServerCookies(DEFAULT_ROTATION, 0);
        c.secrets = new Secrets(secret.clone(), secret.clone(), 1, Long.MAX_VALUE);
        return c;
    }

    /**
     * Writes the 16-byte server cookie for the client cookie at {@code packet[clientCookie..+8)}
     * and the client {@code hi:lo} (the 128-bit form, IPv4 mapped) into {@code out[at..at+16)},
     * stamped {@code now} (seconds since 1970).
     */
    public void write(byte[] packet, int clientCookie, long hi, long lo, byte[] out, int at, long now) {
        Hasher h = hasher(now);
        out[at] = VERSION;
        out[at + 1] = 0;
        out[at + 2] = 0;
        out[at + 3] = 0;
        out[at + 4] = (byte) (now >>> 24);
        out[at + 5] = (byte) (now >>> 16);
        out[at + 6] = (byte) (now >>> 8);
        out[at + 7] = (byte) now;
        hash(h.current, h, packet, clientCookie, out, at, hi, lo);
        System.arraycopy(h.hash, 0, out, at + 8, 8);
    }

    /**
     * True when the COOKIE option at {@code packet[cookie..+length)} carries a server cookie this
     * server made for this client cookie and address {@code hi:lo}, within its lifetime at {@code nowSeconds}.
     */
    public boolean valid(byte[] packet, int cookie, int length, long hi, long lo, long nowSeconds) {
        if (length != CLIENT_COOKIE + SERVER_COOKIE || packet[cookie + CLIENT_COOKIE] != VERSION) {
            return false;
        }
        int server = cookie + CLIENT_COOKIE;
        long stamp = ((packet[server + 4] & 0xFFL) << 24)
                | ((packet[server + 5] & 0xFFL) << 16)
                | ((packet[server + 6] & 0xFFL) << 8)
                | (packet[server + 7] & 0xFFL);
        long now = nowSeconds & 0xFFFF_FFFFL;
        long age = (now - stamp) & 0xFFFF_FFFFL; // serial arithmetic, RFC 1982
        if (age > MAX_AGE && ((stamp - now) & 0xFFFF_FFFFL) > MAX_AHEAD) {
            return false;
        }
        Hasher h = hasher(nowSeconds);
        hash(h.current, h, packet, cookie, packet, server, hi, lo);
        if (sameHash(h.hash, packet, server + 8)) {
            return true;
        }
        hash(h.previous, h, packet, cookie, packet, server, hi, lo);
        return sameHash(h.hash, packet, server + 8);
    }

    /** Constant-time comparison, so the time taken tells an attacker nothing about the hash. */
    private static boolean sameHash(byte[] hash, byte[] packet, int at) {
        int diff = 0;
        for (int i = 0; i < hash.length; i++) {
            diff |= hash[i] ^ packet[at + i];
        }
        return diff == 0;
    }

    private void hash(
            SipHash mac, Hasher h, byte[] packet, int clientCookie, byte[] serverHead, int at, long hi, long lo) {
        byte[] in = h.input;
        System.arraycopy(packet, clientCookie, in, 0, CLIENT_COOKIE);
        System.arraycopy(serverHead, at, in, CLIENT_COOKIE, 8); // version, reserved, timestamp
        int n = CLIENT_COOKIE + 8;
        if (Address.ipv4(hi, lo)) { // the address as it is on the wire: 4 bytes for IPv4, 16 for IPv6
            n = put(in, n, lo, 4);
        } else {
            n = put(in, put(in, n, hi, 8), lo, 8);
        }
        mac.reset();
        mac.update(in, 0, n);
        mac.doFinal(h.hash, 0);
    }

    /** Writes the low {@code bytes} bytes of {@code v} big-endian at {@code b[at]}; returns the end. */
    private static int put(byte[] b, int at, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b[at + i] = (byte) (v >>> (8 * (bytes - 1 - i)));
        }
        return at + bytes;
    }

    /** This thread's hashers, keyed anew when the secret has rotated since they were last used. */
    private Hasher hasher(long now) {
        Secrets s = secrets;
        if (now >= s.rotateAt()) {
            s = rotate(s, now);
        }
        Hasher h = hashers.get();
        if (h.generation != s.generation()) {
            h.current.init(new KeyParameter(s.current()));
            h.previous.init(new KeyParameter(s.previous()));
            h.generation = s.generation();
        }
        return h;
    }

    private synchronized Secrets rotate(Secrets seen, long now) {
        if (secrets == seen) {
            secrets = new Secrets(fresh(), seen.current(), seen.generation() + 1, now + rotation.toSeconds());
        }
        return secrets;
    }

    private byte[] fresh() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return b;
    }
}
