package dev.gslb.topology.load;

import dev.gslb.topology.Cidr;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import java.util.ArrayList;
import java.util.List;

/**
 * Prefix blocks as BIND's address-match lists need them: an element read in BIND's forms, a
 * negated block cut out of a positive one, neighbours merged.
 */
final class PrefixBlocks {
    private PrefixBlocks() {}

    /** An address or prefix as BIND writes it, also the short form {@code 10/8} or {@code 172.16/12}. */
    static IPAddress parse(String w) {
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
        return a.getPrefixLength() == null ? a.setPrefixLength(a.getBitCount(), false) : a.toPrefixBlock();
    }

    static IPAddress any4() {
        return new IPAddressString("0.0.0.0/0").getAddress();
    }

    static IPAddress any6() {
        return new IPAddressString("::/0").getAddress();
    }

    /**
     * {@code p} less every prefix of {@code minus} (of the same family), as prefix blocks: p is
     * halved only where a negated prefix lies inside it, so the work grows with the negations
     * times the address bits, not with the pieces already cut (subtracting one by one did).
     */
    static List<IPAddress> minus(IPAddress p, List<IPAddress> minus) {
        List<IPAddress> inside = new ArrayList<>();
        for (IPAddress m : minus) {
            if (m.isIPv4() == p.isIPv4() && (m.contains(p) || p.contains(m))) {
                inside.add(m);
            }
        }
        List<IPAddress> out = new ArrayList<>();
        cut(p, inside, out);
        return out;
    }

    private static void cut(IPAddress p, List<IPAddress> negated, List<IPAddress> out) {
        if (negated.isEmpty()) {
            out.add(p);
            return;
        }
        for (IPAddress m : negated) {
            if (m.contains(p)) {
                return;
            }
        }
        int half = p.getPrefixLength() + 1;
        for (IPAddress h :
                List.of(p.getLower().toPrefixBlock(half), p.getUpper().toPrefixBlock(half))) {
            List<IPAddress> in = new ArrayList<>();
            for (IPAddress m : negated) {
                if (h.contains(m) || m.contains(h)) {
                    in.add(m);
                }
            }
            cut(h, in, out);
        }
    }

    static List<IPAddress> merged(List<IPAddress> all) {
        List<IPAddress> out = new ArrayList<>();
        List<IPAddress> v4 = all.stream().filter(IPAddress::isIPv4).toList();
        List<IPAddress> v6 = all.stream().filter(IPAddress::isIPv6).toList();
        if (!v4.isEmpty()) {
            out.addAll(List.of(v4.getFirst().mergeToPrefixBlocks(v4.toArray(IPAddress[]::new))));
        }
        if (!v6.isEmpty()) {
            out.addAll(List.of(v6.getFirst().mergeToPrefixBlocks(v6.toArray(IPAddress[]::new))));
        }
        return out;
    }
}
