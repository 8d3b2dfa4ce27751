package dev.gslb.dns.answer;

import java.util.Collection;
import org.xbill.DNS.Name;

/**
 * The {@link WireName#hash hashes} of a set of names, asked from a packet's bytes: "may this name
 * be one of them?". Equal hashes of different names (the hash is seeded per process, so nobody can
 * choose them) only send a question the long way; a name of the set is never missed. Eight bytes
 * a slot, no copy of the names: it stands beside the zones' own sets, which a lookup in place
 * cannot use without building a {@link Name}. Immutable; hand-written because the query path must
 * not allocate (a boxed set would).
 */
final class NameHashes {
    private final long[] slots;
    private final int mask;
    /** 0 marks an empty slot, so a name whose hash is 0 is held here. */
    private final boolean zero;

    NameHashes(Collection<Name> names) {
        int size = Integer.highestOneBit(Math.max(4, names.size() * 2) - 1) << 1;
        this.slots = new long[size];
        this.mask = size - 1;
        boolean z = false;
        for (Name name : names) {
            long h = WireName.hash(name);
            if (h == 0) {
                z = true;
                continue;
            }
            int i = (int) h & mask;
            while (slots[i] != 0 && slots[i] != h) {
                i = (i + 1) & mask;
            }
            slots[i] = h;
        }
        this.zero = z;
    }

    /** False when no name of the set has {@code hash}. */
    boolean mayHold(long hash) {
        if (hash == 0) {
            return zero;
        }
        for (int i = (int) hash & mask; slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == hash) {
                return true;
            }
        }
        return false;
    }
}
