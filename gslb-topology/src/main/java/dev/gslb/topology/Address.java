package dev.gslb.topology;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * One IP address of either family, as the whole code base carries it: 128 bits in two longs, IPv4
 * mapped into ::ffff:0:0/96 (the space {@link Cidr} and the topology table use). A small, cheap map
 * key (the proximity table's); parsed and printed with the ipaddress library. The query path,
 * which must not allocate, keeps the two halves in primitives and looks entries up with a
 * {@link Reusable} key.
 */
public record Address(long hi, long lo) {
    public static Address of(InetAddress address) {
        return new Address(Cidr.hiOf(address), Cidr.loOf(address));
    }

    /** The IPv4 address {@code address} (four bytes, big-endian in an int), in its mapped form. */
    public static Address ofIpv4(int address) {
        return new Address(0, Cidr.V4_MAPPED_LO | Integer.toUnsignedLong(address));
    }

    /** An IPv4 or IPv6 literal (no host names, no prefix). */
    public static Address parse(String text) {
        String t = text.strip();
        if (t.indexOf('/') >= 0) { // no prefix; and ipaddress 5 overflows on a long one
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address");
        }
        try {
            IPAddress ip = new IPAddressString(t, Cidr.LITERAL).toAddress();
            if (ip.isPrefixed() || ip.isMultiple() || ip.toInetAddress() == null) { // null: a zone no link has
                throw new IllegalArgumentException();
            }
            return of(ip.toInetAddress());
        } catch (AddressStringException | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address");
        }
    }

    public boolean ipv4() {
        return ipv4(hi, lo);
    }

    /** True when the 128-bit form is an IPv4-mapped address. */
    public static boolean ipv4(long hi, long lo) {
        return hi == 0 && (lo >>> 32) == 0xFFFF;
    }

    /** The address as the ipaddress library's value: IPv4 for a mapped one. */
    public IPAddress ipAddress() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (hi >>> (56 - 8 * i));
            b[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return ipv4() ? new IPv4Address(Arrays.copyOfRange(b, 12, 16)) : new IPv6Address(b);
    }

    /** A socket address as operators and URLs write it: 127.0.0.1:53, [::1]:53. */
    public static String hostPort(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    public InetAddress inetAddress() {
        return ipAddress().toInetAddress();
    }

    @Override
    public int hashCode() {
        return hash(hi, lo);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Address a && a.hi == hi && a.lo == lo;
    }

    static int hash(long hi, long lo) {
        return Long.hashCode(hi * 0x9E3779B97F4A7C15L + lo);
    }

    /** The operator's spelling: 202.106.0.20, 2001:db8::1. */
    @Override
    public String toString() {
        return ipAddress().toCanonicalString();
    }

    /**
     * A reusable lookup key, so the query path can find an entry keyed by {@link Address} without
     * allocating: equal to the Address of the same halves, with the same hash. One per thread.
     */
    public static final class Reusable {
        private long hi;
        private long lo;

        public Reusable set(long hi, long lo) {
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
            return o instanceof Address a && a.hi() == hi && a.lo() == lo;
        }
    }
}
