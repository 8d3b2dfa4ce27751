package dev.gslb.dns.answer;

import java.util.Arrays;
import org.xbill.DNS.Name;

/** A domain name as lower-case wire bytes: a cheap hash key built straight from a packet. */
record WireName(byte[] bytes, int hash) {
    static WireName of(Name name) {
        byte[] wire = name.toWireCanonical();
        return new WireName(wire, Arrays.hashCode(wire));
    }

    /** The lower-cased copy of the name at {@code [from, to)} of a packet. */
    static WireName of(byte[] packet, int from, int to) {
        byte[] b = Arrays.copyOfRange(packet, from, to);
        lowerCase(b, 0, b.length);
        return new WireName(b, Arrays.hashCode(b));
    }

    /** Lower-cases the ASCII letters of each label in place, skipping the length bytes. */
    static void lowerCase(byte[] b, int from, int to) {
        int p = from;
        while (p < to) {
            int label = b[p] & 0xFF;
            for (int i = p + 1; i <= p + label && i < to; i++) {
                byte c = b[i];
                if (c >= 'A' && c <= 'Z') {
                    b[i] = (byte) (c + 32);
                }
            }
            p += label + 1;
            if (label == 0) {
                break;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WireName w && w.hash == hash && Arrays.equals(w.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
