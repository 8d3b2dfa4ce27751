package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import dev.gslb.topology.PrefixSet;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;

/**
 * Prefixes as BIND's address-match lists write them: an element read in BIND's forms, the sets
 * of every address of a family, and back to text; the arithmetic is {@link PrefixSet}'s.
 */
final class PrefixBlocks {
    private PrefixBlocks() {}

    /** An address or prefix as BIND writes it, also the short form {@code 10/8} or {@code 172.16/12}. */
    static Cidr parse(String w) {
        String text = w;
        int slash = w.indexOf('/');
        String addr = slash < 0 ? w : w.substring(0, slash);
        if (!addr.contains(":") && addr.matches("\\d+(\\.\\d+){0,2}") && slash > 0) {
            StringBuilder b = new StringBuilder(addr);
            for (long dots = addr.chars().filter(c -> c == '.').count(); dots < 3; dots++) {
                b.append(".0");
            }
            text = b + w.substring(slash);
        }
        if (slash >= 0 && !Cidr.isLengthText(w.substring(slash + 1))) {
            return null;
        }
        IPAddress a = new IPAddressString(text, Cidr.LITERAL).getAddress(); // no wildcards or ranges
        if (a == null) {
            return null;
        }
        int length = a.getPrefixLength() == null ? a.getBitCount() : a.getPrefixLength();
        byte[] b = a.getLower().getBytes(); // not through InetAddress, which makes ::ffff:a.b.c.d IPv4
        boolean v4 = a.isIPv4();
        return new Cidr(Cidr.hiOf(b, 0, b.length, v4), Cidr.loOf(b, 0, b.length, v4), length, v4).network();
    }

    /** Every IPv4 address, as BIND's {@code 0.0.0.0/0}. */
    static final Cidr ANY4 = new Cidr(0, 0xFFFF_0000_0000L, 0, true);
    /** Every IPv6 address, as BIND's {@code ::/0}. */
    static final Cidr ANY6 = new Cidr(0, 0, 0, false);

    /** Whether {@code p} is every address of one family (BIND's {@code 0.0.0.0/0} or {@code ::/0}). */
    static boolean isFamily(PrefixSet p) {
        return p.equals(PrefixSet.IPV4) || p.equals(PrefixSet.IPV6);
    }

    /** A prefix as BIND and the CIDR lists write it: {@code 10.0.0.0/8}, {@code 2001:db8::/32}. */
    static String text(Cidr c) {
        return new IPAddressString(c.toString()).getAddress().toPrefixLengthString();
    }
}
