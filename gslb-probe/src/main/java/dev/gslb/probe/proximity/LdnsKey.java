package dev.gslb.probe.proximity;

import dev.gslb.topology.Cidr;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An LDNS address as two longs, in the 128-bit form of {@link Cidr} (IPv4 mapped into
 * ::ffff:0:0/96): a small, cheap map key.
 */
public record LdnsKey(long hi, long lo) {
    public static LdnsKey of(InetAddress address) {
        return new LdnsKey(Cidr.hiOf(address), Cidr.loOf(address));
    }

    public static LdnsKey parse(String text) {
        try {
            return of(InetAddress.ofLiteral(text.strip()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address");
        }
    }

    public boolean ipv4() {
        return ipv4(hi, lo);
    }

    /** True when the 128-bit form is an IPv4-mapped address. */
    static boolean ipv4(long hi, long lo) {
        return hi == 0 && (lo >>> 32) == 0xFFFF;
    }

    public InetAddress address() {
        byte[] b;
        if (ipv4()) {
            b = new byte[] {(byte) (lo >>> 24), (byte) (lo >>> 16), (byte) (lo >>> 8), (byte) lo};
        } else {
            b = new byte[16];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int hashCode() {
        return hash(hi, lo);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LdnsKey k && k.hi == hi && k.lo == lo;
    }

    static int hash(long hi, long lo) {
        return Long.hashCode(hi * 0x9E3779B97F4A7C15L + lo);
    }

    @Override
    public String toString() {
        return address().getHostAddress();
    }

    /**
     * A reusable lookup key, so the query path can look an LDNS up without allocating: equal to
     * the {@link LdnsKey} of the same address, with the same hash. One per thread.
     */
    static final class Probe {
        long hi;
        long lo;

        Probe set(long hi, long lo) {
            this.hi = hi;
            this.lo = lo;
            return this;
        }

        @Override
        public int hashCode() {
            return hash(hi, lo);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LdnsKey k && k.hi() == hi && k.lo() == lo;
        }
    }
}
