package dev.gslb.topology;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import inet.ipaddr.IncompatibleAddressException;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * An IPv4 or IPv6 prefix. Both families live in one 128-bit space (IPv4 as ::ffff:a.b.c.d/96+n),
 * so one sorted table answers both; {@link #toString()} prints the form the operator wrote.
 */
public record Cidr(long hi, long lo, int length, boolean ipv4) implements Comparable<Cidr> {
    static final long V4_MAPPED_LO = 0xFFFF_0000_0000L;

    /*
     * equals and hashCode are written out: a record's own are made at their first call by a
     * bootstrap method and run through method handles until compiled, which the start-up's
     * 17,000 prefixes (sorted, then compared for duplicates) paid for each time.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && c.hi == hi && c.lo == lo && c.length == length && c.ipv4 == ipv4;
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(hi) * 31 + Long.hashCode(lo)) * 31 + length * 2 + (ipv4 ? 1 : 0);
    }

    /** Address literals only: no host names, ranges, wildcards, masks or inet_aton short forms. */
    public static final IPAddressStringParameters LITERAL = new IPAddressStringParameters.Builder()
            .allowEmpty(false)
            .allowAll(false)
            .allowMask(false)
            .allowSingleSegment(false)
            .allowWildcardedSeparator(false)
            .setEmptyAsLoopback(false)
            .getIPv4AddressParametersBuilder()
            .allow_inet_aton(false)
            .setRangeOptions(RangeParameters.NO_RANGE)
            .allowWildcardedSeparator(false)
            .allowPrefixesBeyondAddressSize(false)
            .getParentBuilder()
            .getIPv6AddressParametersBuilder()
            .setRangeOptions(RangeParameters.NO_RANGE)
            .allowWildcardedSeparator(false)
            .allowPrefixesBeyondAddressSize(false)
            .getParentBuilder()
            .toParams();

    /**
     * Parses "a.b.c.d/n" or "x::/n" (a bare address is a host route): the common forms by hand
     * ({@link #plainIpv4}, {@link #plainIpv6}), the rest with the ipaddress library.
     * Refuses a default route, host bits set, and anything not an address literal, with a message
     * saying what to write.
     */
    public static Cidr parse(String text) {
        return parse(text, true);
    }

    /** {@link #parse(String)}, or with every address through the library ({@code byHand} false: tests compare the two). */
    static Cidr parse(String text, boolean byHand) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String addr = slash < 0 ? t : t.substring(0, slash);
        boolean v4 = addr.indexOf(':') < 0;
        if (v4 && !isDottedQuad(addr)) {
            throw new IllegalArgumentException("'" + t + "' is not a CIDR (write a.b.c.d/len or x:y::/len)");
        }
        if (addr.indexOf('%') >= 0) { // a zone names a link of this host; a prefix of the internet has none
            throw new IllegalArgumentException("'" + t + "' has a zone (%...): write the prefix without it");
        }
        int max = v4 ? 32 : 128;
        int prefixLength = max;
        if (slash >= 0) {
            String len = t.substring(slash + 1);
            if (!isLengthText(len)) {
                throw new IllegalArgumentException("'" + t + "' has a bad prefix length");
            }
            prefixLength = Integer.parseInt(len);
            if (prefixLength > max) {
                throw new IllegalArgumentException("'" + t + "': prefix length must be 0.." + max);
            }
        }
        Cidr plain = !byHand ? null : v4 ? plainIpv4(addr, prefixLength) : plainIpv6(addr, prefixLength);
        if (plain != null) {
            return plain;
        }
        IPAddress ip;
        try {
            ip = new IPAddressString(t, LITERAL).toAddress();
        } catch (AddressStringException | IncompatibleAddressException e) {
            throw new IllegalArgumentException("'" + t + "' is not a CIDR: bad address '" + addr + "'");
        }
        if (ip.isIPv6() && ip.toIPv6().isIPv4Mapped()) {
            throw new IllegalArgumentException("'" + t + "' is an IPv4-mapped IPv6 prefix: write the IPv4 form");
        }
        Integer prefix = ip.getNetworkPrefixLength();
        int len = prefix == null ? ip.getBitCount() : prefix;
        if (len == 0) {
            throw new IllegalArgumentException("'" + t + "' is a default route; it would match every address");
        }
        IPAddress network = ip.toPrefixBlock(len);
        if (!ip.getLower().withoutPrefixLength().equals(network.getLower().withoutPrefixLength())) {
            throw new IllegalArgumentException(
                    "'" + t + "' has host bits set; did you mean " + network.toCanonicalString() + "?");
        }
        return of(network.getLower().withoutPrefixLength().toInetAddress(), len);
    }

    /**
     * The common case of an ISP list, by hand: a.b.c.d (each 0-255 without leading zeros) and a
     * length of 1-32 with no host bit set. The ipaddress library, cold, made parsing the shipped
     * lists' 17,000 prefixes about a sixth of a server's start. Anything else (null) goes to the
     * library, which says what is wrong.
     */
    private static Cidr plainIpv4(String addr, int len) {
        if (len < 1 || len > 32) {
            return null;
        }
        long a = 0;
        int octet = -1;
        int digits = 0;
        for (int i = 0; i <= addr.length(); i++) {
            char c = i < addr.length() ? addr.charAt(i) : '.';
            if (c == '.') {
                if (digits == 0 || octet > 255) {
                    return null;
                }
                a = (a << 8) | octet;
                octet = -1;
                digits = 0;
            } else {
                if (digits > 0 && octet == 0) {
                    return null; // a leading zero
                }
                octet = (octet < 0 ? 0 : octet * 10) + (c - '0');
                digits++;
            }
        }
        long hostBits = (1L << (32 - len)) - 1;
        return (a & hostBits) == 0 ? new Cidr(0, V4_MAPPED_LO | a, len, true) : null;
    }

    /**
     * The common IPv6 form of an ISP list, by hand, as {@link #plainIpv4}: up to eight groups of
     * one to four hex digits, at most one "::", a length of 1-128 with no host bit set, not
     * IPv4-mapped. Anything else (an embedded IPv4 tail, say) is null: the library's.
     */
    private static Cidr plainIpv6(String addr, int len) {
        if (len < 1 || len > 128) {
            return null;
        }
        long[] groups = new long[8];
        int n = 0;
        int gap = -1; // where "::" stands: the groups after it move to the end
        int at = 0;
        if (addr.startsWith("::")) {
            gap = 0;
            at = 2;
        }
        while (at < addr.length()) {
            int end = at;
            long g = 0;
            for (int d; end < addr.length() && end - at < 5 && (d = hexDigit(addr.charAt(end))) >= 0; end++) {
                g = g << 4 | d;
            }
            if (end == at || end - at > 4 || n == 8) {
                return null;
            }
            groups[n++] = g;
            if (end == addr.length()) {
                at = end;
            } else if (addr.startsWith("::", end) && gap < 0) {
                gap = n;
                at = end + 2;
            } else if (addr.charAt(end) == ':' && end + 1 < addr.length()) {
                at = end + 1;
            } else {
                return null;
            }
        }
        if (gap < 0 ? n != 8 : n > 7) {
            return null;
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0, from = 0; i < 8; i++) {
            boolean zero = gap >= 0 && i >= gap && i < gap + 8 - n;
            long g = zero ? 0 : groups[from++];
            if (i < 4) {
                hi = hi << 16 | g;
            } else {
                lo = lo << 16 | g;
            }
        }
        if (hi == 0 && (lo >>> 32) == 0xFFFF) {
            return null; // IPv4-mapped: the library says to write the IPv4 form
        }
        long hostHi = len >= 64 ? 0 : -1L >>> len;
        long hostLo = len >= 128 ? 0 : len <= 64 ? -1L : -1L >>> (len - 64);
        return (hi & hostHi) == 0 && (lo & hostLo) == 0 ? new Cidr(hi, lo, len, false) : null;
    }

    /** An ASCII hex digit's value, or -1 (Character.digit would take other scripts' digits). */
    private static int hexDigit(char c) {
        return c >= '0' && c <= '9'
                ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /**
     * One to three ASCII digits: the only prefix lengths given to the ipaddress library, which
     * overflows on a long one (ArrayIndexOutOfBounds).
     */
    public static boolean isLengthText(String len) {
        if (len.isEmpty() || len.length() > 3) {
            return false;
        }
        for (int i = 0; i < len.length(); i++) {
            if (len.charAt(i) < '0' || len.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Four groups of one to three decimal digits, dot-separated (their values are checked where
     * they are read). By hand, as the other checks here: the regex it replaces, run on each of the
     * shipped lists' 17,000 prefixes, made java.util.regex the largest C2 compilation of every
     * start, on two cores busy with the start's own work (docs/benchmarks.md).
     */
    static boolean isDottedQuad(String s) {
        int dots = 0;
        int digits = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9' && digits < 3) {
                digits++;
            } else if (c == '.' && digits > 0 && dots < 3) {
                dots++;
                digits = 0;
            } else {
                return false;
            }
        }
        return dots == 3 && digits > 0;
    }

    /** The prefix of {@code ip} with {@code length} bits (host bits kept; see {@link #network()}). */
    public static Cidr of(InetAddress ip, int length) {
        return new Cidr(hiOf(ip), loOf(ip), length, ip instanceof Inet4Address);
    }

    /** The high half of an address in the shared 128-bit space; no allocation for IPv4. */
    public static long hiOf(InetAddress ip) {
        return ip instanceof Inet6Address ? wireLong(ip.getAddress(), 0, 16, 0) : 0;
    }

    /**
     * The low half of an address in the shared 128-bit space. IPv4's hash code is its address,
     * which spares the array copy of getAddress() on the query path.
     */
    public static long loOf(InetAddress ip) {
        return ip instanceof Inet6Address
                ? wireLong(ip.getAddress(), 0, 16, 8)
                : V4_MAPPED_LO | (ip.hashCode() & 0xFFFF_FFFFL);
    }

    /**
     * The high half of an address given as wire bytes {@code b[off, off+len)}, possibly cut short
     * (an EDNS client subnet leaves out the bytes past its prefix): missing bytes are zero.
     */
    public static long hiOf(byte[] b, int off, int len, boolean ipv4) {
        return ipv4 ? 0 : wireLong(b, off, len, 0);
    }

    /** The low half, as {@link #hiOf(byte[], int, int, boolean)}. */
    public static long loOf(byte[] b, int off, int len, boolean ipv4) {
        return ipv4 ? V4_MAPPED_LO | wireLong(b, off, len, 0) >>> 32 : wireLong(b, off, len, 8);
    }

    private static long wireLong(byte[] b, int off, int len, int from) {
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = (v << 8) | (i < len ? b[off + i] & 0xFF : 0);
        }
        return v;
    }

    /** Prefix length in the shared 128-bit space. */
    int spaceLength() {
        return ipv4 ? length + 96 : length;
    }

    /** This prefix with host bits cleared. */
    public Cidr network() {
        return new Cidr(hi & hiMask(), lo & loMask(), length, ipv4);
    }

    /** Whether the address {@code h:l} (the 128-bit form) lies in this prefix. */
    public boolean contains(long h, long l) {
        return (h & hiMask()) == (hi & hiMask()) && (l & loMask()) == (lo & loMask());
    }

    private long hiMask() {
        int n = spaceLength();
        return n >= 64 ? -1L : (n == 0 ? 0 : -1L << (64 - n));
    }

    private long loMask() {
        int n = spaceLength();
        return n <= 64 ? 0 : (n == 128 ? -1L : -1L << (128 - n));
    }

    /** The high half of the prefix's first address in the shared space. */
    long firstHi() {
        return hi & hiMask();
    }

    long firstLo() {
        return lo & loMask();
    }

    /** The high half of the prefix's last address in the shared space. */
    long lastHi() {
        return hi | ~hiMask();
    }

    long lastLo() {
        return lo | ~loMask();
    }

    @Override
    public int compareTo(Cidr o) {
        int c = Long.compareUnsigned(hi, o.hi);
        if (c == 0) {
            c = Long.compareUnsigned(lo, o.lo);
        }
        return c != 0 ? c : Integer.compare(spaceLength(), o.spaceLength());
    }

    /** The first address of the prefix (an IPv4 address for an IPv4 prefix). */
    public InetAddress address() {
        return ipAddress().toInetAddress();
    }

    /** The prefix as an ipaddress value (for printing and range arithmetic). */
    IPAddress ipAddress() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (hi >>> (56 - 8 * i));
            b[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return ipv4 ? new IPv4Address(Arrays.copyOfRange(b, 12, 16), length) : new IPv6Address(b, length);
    }

    /** The operator's form: 202.106.0.0/16, 2001:db8::/32. */
    @Override
    public String toString() {
        if (ipv4) { // by hand, both families, as parse: the topology names its 17,000 prefixes at start
            int a = (int) firstLo(); // the network, as the library printed it: host bits may be kept
            return (a >>> 24) + "." + (a >>> 16 & 0xFF) + "." + (a >>> 8 & 0xFF) + "." + (a & 0xFF) + "/" + length;
        }
        return ipv6Text() + "/" + length;
    }

    /**
     * The network's address in RFC 5952's form (the library's canonical one): the longest run of
     * two or more zero groups, the first of equals, as "::".
     */
    private String ipv6Text() {
        long h = firstHi();
        long l = firstLo();
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (int) ((i < 4 ? h >>> (48 - 16 * i) : l >>> (48 - 16 * (i - 4))) & 0xFFFF);
        }
        int best = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                best = i;
                bestLength = j - i;
            }
            i = Math.max(j, i + 1);
        }
        StringBuilder b = new StringBuilder(40);
        for (int i = 0; i < 8; i++) {
            if (i == best) {
                b.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != best + bestLength) {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }
}
