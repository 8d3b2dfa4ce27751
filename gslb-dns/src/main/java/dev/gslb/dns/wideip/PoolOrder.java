package dev.gslb.dns.wideip;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The order in which a wide IP's pools are tried (its pool-method). Global availability: as
 * listed. Round robin: the listing rotated, each query starting one pool further. Lock-free and
 * allocation-free once a wide IP has its counter.
 */
final class PoolOrder {
    private final ConcurrentHashMap<WideIp, AtomicLong> rotation = new ConcurrentHashMap<>();

    /** The index of the pool tried first for this query. */
    int first(WideIp w) {
        if (w.poolMethod() == WideIp.PoolMethod.ROUND_ROBIN) {
            return (int) Math.floorMod(
                    rotation.computeIfAbsent(w, k -> new AtomicLong()).getAndIncrement(),
                    w.pools().size());
        }
        return 0;
    }

    /** The index of the {@code k}-th pool tried when {@code first} is tried first. */
    static int at(WideIp w, int first, int k) {
        return (first + k) % w.pools().size();
    }
}
