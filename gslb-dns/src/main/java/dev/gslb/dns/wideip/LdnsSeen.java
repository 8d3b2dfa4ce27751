package dev.gslb.dns.wideip;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The LDNS that asked for wide IPs, each with the data center it was last sent to and when: the
 * statistics' LDNS counts per data center and per topology region. A fixed table of {@value
 * #SLOTS} slots indexed by the address's hash, written on the query path without allocating:
 * beyond about that many LDNS, or when two share a slot, the counts are approximate (an LDNS
 * may be counted once less), never unbounded. Racing writers may tear a slot: a count, not a
 * decision.
 */
public final class LdnsSeen {
    static final int SLOTS = 1 << 16;

    /**
     * A slot's address (high, low half) and when it was last seen, side by side in 32 bytes (the
     * fourth long unused) so that a query touches one cache line of them, not three.
     */
    private static final int STRIDE = 4;

    private final long[] slots = new long[SLOTS * STRIDE];
    private final String[] dataCenter = new String[SLOTS];

    /** A share of the LDNS in one window. */
    public record Count(String name, long ldns, double percent) {}

    /** How many LDNS asked within a window, by the data center they were sent to and by region. */
    public record Split(long ldns, List<Count> dataCenters, List<Count> regions) {}

    /** Where an LDNS is in the topology table (a region's name, or null). */
    @FunctionalInterface
    public interface Regions {
        String of(long hi, long lo);
    }

    void saw(long h, long l, String dc, long now) {
        int i = (int) (((h * 0x9E3779B97F4A7C15L) ^ (l * 0xC2B2AE3D27D4EB4FL)) >>> 48) & (SLOTS - 1);
        int at = i * STRIDE;
        if (slots[at] != h || slots[at + 1] != l) {
            slots[at] = h;
            slots[at + 1] = l;
        }
        if (dataCenter[i] != dc) {
            dataCenter[i] = dc;
        }
        if (now - slots[at + 2] > 1000) { // a second's precision is enough: fewer writes to a shared line
            slots[at + 2] = now;
        }
    }

    /** The LDNS seen within {@code windowMillis} (-1: since start). */
    Split split(long now, long windowMillis, Regions regions) {
        Map<String, Long> byDc = new HashMap<>();
        Map<String, Long> byRegion = new HashMap<>();
        long n = 0;
        for (int i = 0; i < SLOTS; i++) {
            String dc = dataCenter[i];
            int slot = i * STRIDE;
            long at = slots[slot + 2];
            if (dc == null || at == 0 || (windowMillis >= 0 && now - at > windowMillis)) {
                continue;
            }
            n++;
            byDc.merge(dc, 1L, Long::sum);
            String region = regions.of(slots[slot], slots[slot + 1]);
            byRegion.merge(region == null ? "(no region)" : region, 1L, Long::sum);
        }
        return new Split(n, counts(byDc, n), counts(byRegion, n));
    }

    private static List<Count> counts(Map<String, Long> m, long total) {
        List<Count> out = new ArrayList<>();
        m.forEach((k, v) -> out.add(new Count(k, v, total == 0 ? 0 : Math.round(v * 1000.0 / total) / 10.0)));
        out.sort(Comparator.comparingLong(Count::ldns).reversed().thenComparing(Count::name));
        return out;
    }
}
