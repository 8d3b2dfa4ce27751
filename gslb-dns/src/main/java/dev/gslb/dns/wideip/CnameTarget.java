package dev.gslb.dns.wideip;

import org.xbill.DNS.Name;

/**
 * One member of a CNAME pool: the absolute name the answer's CNAME points to, its ratio (for the
 * ratio method), and its wire form made once, so answering it copies bytes and builds nothing.
 */
public record CnameTarget(Name name, int ratio, byte[] wire) {
    public CnameTarget(Name name, int ratio) {
        this(name, ratio, name.toWire());
    }

    public CnameTarget {
        if (!name.isAbsolute()) {
            throw new IllegalArgumentException(
                    "a CNAME pool's member must be an absolute name (end it with a dot): " + name);
        }
        if (ratio < 0 || ratio > 1_000_000) {
            throw new IllegalArgumentException("ratio of " + name + " must be 0 to 1000000");
        }
    }
}
