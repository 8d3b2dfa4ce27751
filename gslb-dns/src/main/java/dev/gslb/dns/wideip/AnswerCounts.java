package dev.gslb.dns.wideip;

import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.xbill.DNS.Name;

/**
 * The counter {@code answers{wideip, datacenter, method}}: every wide-IP answer, under the data
 * center of the server it names ({@value #NONE} when it names none: a fallback address, the
 * failure behaviour) and the method that decided ({@value #FAILURE} when no pool did). Every
 * counter a wide IP can reach is made when the configuration loads, from its pools' members and
 * methods, so the labels are the configuration's names and a method from the fixed set, never an
 * address; past {@code maxWideIps} the rest are counted together as {@code other}. The query path
 * does one add (and three map reads when a thread's decision differs from its last one: {@link
 * Recent}), and allocates nothing. Immutable: a reload builds the next one, which keeps the adders
 * of the counters both have, so no count starts again.
 */
public final class AnswerCounts {
    public static final String NONE = "none";
    public static final String FAILURE = "failure";

    /** One counter's labels. */
    public record Key(String wideIp, String dataCenter, String method) {}

    /** One wide IP's counters: a cell per data center and method, reached by index. */
    private record Row(Map<String, Integer> dataCenters, Map<String, Integer> methods, LongAdder[] cells) {
        /** The counter of an answer from {@code dataCenter} decided by {@code method}, or null if it has none. */
        LongAdder cell(String dataCenter, String method) {
            Integer d = dataCenters.get(dataCenter);
            Integer m = methods.get(method);
            return d != null && m != null ? cells[d * methods.size() + m] : null;
        }
    }

    /** Nothing configured: counts nothing. */
    public static final AnswerCounts NOTHING = new AnswerCounts(Map.of(), null, Map.of());

    private final Map<Name, Row> rows;
    private final Row other;
    private final Map<Key, LongAdder> cells;
    private final Map<Key, Meter> meters = new java.util.concurrent.ConcurrentHashMap<>();

    private AnswerCounts(Map<Name, Row> rows, Row other, Map<Key, LongAdder> cells) {
        this.rows = rows;
        this.other = other;
        this.cells = cells;
    }

    /**
     * The counters of {@code wideIps}: the first {@code maxWideIps} by name each on their own, the
     * rest together as {@code other}; a counter {@code previous} has keeps its adder.
     */
    public static AnswerCounts of(Collection<WideIp> wideIps, int maxWideIps, AnswerCounts previous) {
        List<WideIp> sorted = wideIps.stream()
                .sorted(java.util.Comparator.comparing(WideIp::name))
                .toList();
        Map<Name, Row> rows = new HashMap<>();
        Map<Key, LongAdder> cells = new java.util.LinkedHashMap<>();
        Set<String> otherDcs = new LinkedHashSet<>();
        Set<String> otherMethods = new LinkedHashSet<>();
        for (int i = 0; i < sorted.size(); i++) {
            WideIp w = sorted.get(i);
            Set<String> dcs = new LinkedHashSet<>();
            Set<String> methods = new LinkedHashSet<>();
            reachable(w, dcs, methods);
            if (i < maxWideIps) {
                rows.put(w.name(), row(w.name().toString(true), dcs, methods, previous, cells));
            } else {
                otherDcs.addAll(dcs);
                otherMethods.addAll(methods);
            }
        }
        Row other = otherDcs.isEmpty() ? null : row(AnswerStatistics.OTHER, otherDcs, otherMethods, previous, cells);
        return new AnswerCounts(Map.copyOf(rows), other, java.util.Collections.unmodifiableMap(cells));
    }

    /** The data centers and methods an answer of {@code w} can be counted under. */
    private static void reachable(WideIp w, Set<String> dcs, Set<String> methods) {
        for (Pool p : w.pools()) {
            for (VirtualServer vs : p.members()) {
                dcs.add(vs.dataCenter().name());
            }
            for (LoadBalancingMethod m : p.tiers()) {
                methods.add(m.name());
            }
        }
        dcs.add(NONE);
        if (w.persistTtl() > 0) {
            methods.add(WideIpResolver.PERSISTENCE.name());
        }
        methods.add(FAILURE);
    }

    private static Row row(
            String wideIp, Set<String> dcs, Set<String> methods, AnswerCounts previous, Map<Key, LongAdder> cells) {
        Map<String, Integer> d = index(dcs);
        Map<String, Integer> m = index(methods);
        LongAdder[] adders = new LongAdder[dcs.size() * methods.size()];
        for (var dc : d.entrySet()) {
            for (var method : m.entrySet()) {
                Key k = new Key(wideIp, dc.getKey(), method.getKey());
                LongAdder was = previous == null ? null : previous.cells.get(k);
                LongAdder a = was != null ? was : new LongAdder();
                adders[dc.getValue() * methods.size() + method.getValue()] = a;
                cells.put(k, a);
            }
        }
        return new Row(d, m, adders);
    }

    private static Map<String, Integer> index(Set<String> names) {
        Map<String, Integer> out = new HashMap<>();
        for (String n : names) {
            out.put(n, out.size());
        }
        return Map.copyOf(out);
    }

    /**
     * One thread's last counted cell, so that the same decision again (one wide IP, one method,
     * one data center for a while) costs no map lookup: the keys are compared by identity (the
     * configuration's names, a method's own name), and anything else, or another configuration's
     * counts, looks up again. Owned by one thread: no race.
     */
    public static final class Recent {
        private AnswerCounts owner;
        private WideIp wideIp;
        private String method;
        private String dataCenter;
        private LongAdder cell;
    }

    /** Counts the answer {@code r} gave for {@code w}, through the calling thread's {@code recent}: allocation-free. */
    public void count(WideIp w, WideIpResolver.Result r, Recent recent) {
        String method = r.outcome() == null ? FAILURE : r.method().name();
        String dc = r.count() > 0 ? r.answer(0).dataCenter().name() : NONE;
        if (recent.owner != this || recent.wideIp != w || recent.method != method || recent.dataCenter != dc) {
            Row row = rows.get(w.name());
            if (row == null) {
                row = other; // null: a wide IP of another configuration, in flight across a reload
            }
            recent.owner = this;
            recent.wideIp = w;
            recent.method = method;
            recent.dataCenter = dc;
            recent.cell = row == null ? null : row.cell(dc, method);
        }
        if (recent.cell != null) {
            recent.cell.increment();
        }
    }

    /** Every counter, with its labels. */
    public Map<Key, LongAdder> cells() {
        return cells;
    }

    /**
     * Registers this configuration's counters in {@code registry} and removes those of
     * {@code previous} it does not have: called off the query path, when the configuration loads.
     */
    public void register(MeterRegistry registry, AnswerCounts previous) {
        for (var e : cells.entrySet()) {
            Key k = e.getKey();
            Meter kept = previous == null ? null : previous.meters.get(k);
            if (kept != null) { // the same adder (see of): registering it again would only warn
                meters.put(k, kept);
                continue;
            }
            meters.put(
                    k,
                    FunctionCounter.builder("answers", e.getValue(), LongAdder::sum)
                            .description("Wide-IP answers, by wide IP, the data center of the server answered"
                                    + " (none: no server) and the method that decided (failure: no pool did)")
                            .tags("wideip", k.wideIp(), "datacenter", k.dataCenter(), "method", k.method())
                            .register(registry));
        }
        if (previous != null) {
            previous.meters.forEach((k, m) -> {
                if (!cells.containsKey(k)) {
                    registry.remove(m);
                }
            });
        }
    }
}
