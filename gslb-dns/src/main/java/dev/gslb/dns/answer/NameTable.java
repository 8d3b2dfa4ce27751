package dev.gslb.dns.answer;

import java.util.Map;
import org.xbill.DNS.Name;

/**
 * Values by domain name, found straight from a packet's bytes: an open-addressing table keyed by
 * the lower-case wire form, so the query path looks a name (or one of its suffixes) up without
 * building a {@link Name}. Immutable; built with the {@link Authority} it belongs to.
 */
final class NameTable<T> {
    private final byte[][] names;
    private final Object[] values;
    private final int mask;

    NameTable(Map<Name, T> entries) {
        int size = Integer.highestOneBit(Math.max(4, entries.size() * 4) - 1) << 1;
        this.names = new byte[size][];
        this.values = new Object[size];
        this.mask = size - 1;
        entries.forEach((name, value) -> {
            byte[] wire = name.toWireCanonical();
            int i = (int) WireName.hash(wire, 0, wire.length) & mask;
            while (names[i] != null) {
                i = (i + 1) & mask;
            }
            names[i] = wire;
            values[i] = value;
        });
    }

    /** The value of the uncompressed name at {@code b[from, to)} whose {@link WireName#hash} is {@code hash}, or null. */
    @SuppressWarnings("unchecked")
    T get(byte[] b, int from, int to, long hash) {
        for (int i = (int) hash & mask; names[i] != null; i = (i + 1) & mask) {
            if (WireName.matches(names[i], b, from, to)) {
                return (T) values[i];
            }
        }
        return null;
    }
}
