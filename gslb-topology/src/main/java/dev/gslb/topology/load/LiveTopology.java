package dev.gslb.topology.load;

import dev.gslb.topology.Region;
import dev.gslb.topology.TopologyException;
import dev.gslb.topology.TopologyRecord;
import dev.gslb.topology.TopologyTable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The topology table in service. Every change (start, reload, a load, unload or revert through the
 * admin API) builds a complete new table off to the side and swaps it in with one volatile write;
 * a change that fails throws and leaves the table in service untouched. Readers never wait. The
 * table is always the configured lists and records with the run-time loads over them, in order,
 * so taking a load away rebuilds what it hid.
 */
public final class LiveTopology {
    /** What to load: files and folders of lists, the configured records, the known data centers. */
    public record Spec(List<Path> data, List<TopologyRecord> records, Set<String> dataCenters) {
        public Spec {
            data = List.copyOf(data);
            records = List.copyOf(records);
            dataCenters = Set.copyOf(dataCenters);
        }
    }

    /** The outcome of a successful load: prefixes per region loaded, totals, warnings. */
    public record LoadReport(
            Map<String, Integer> loaded, int regions, int prefixes, List<String> warnings, Duration took) {}

    /** The most run-time loads kept at once: each is rebuilt into every table, and travels to the peers. */
    public static final int MAX_LOADS = 100;

    private volatile Spec spec;
    private volatile TopologyTable table;
    private volatile Instant loadedAt;
    /**
     * What was loaded at run time, in order, each with its parsed sources: kept across reloads,
     * and (through the sync group's state folder) across restarts.
     */
    private volatile List<Loaded> loads = List.of();

    /** A change prepared over run-time loads that another change (a peer's) replaced before it was committed. */
    public static final class Overtaken extends RuntimeException {
        Overtaken(String message) {
            super(message);
        }
    }

    /** A run-time load and what its texts parsed to. */
    private record Loaded(RuntimeLoad load, List<TopologySource> sources) {}

    public LiveTopology(Spec spec) throws TopologyException {
        this.spec = spec;
        reload();
    }

    public TopologyTable table() {
        return table;
    }

    public Instant loadedAt() {
        return loadedAt;
    }

    public Spec spec() {
        return spec;
    }

    /** What was loaded at run time and is in service, in the order it applies. */
    public List<RuntimeLoad> loads() {
        return loads.stream().map(Loaded::load).toList();
    }

    /** Prefixes per region that the load named {@code name} holds, or null when none has that name. */
    public Map<String, Integer> countsOf(String name) {
        for (Loaded l : loads) {
            if (l.load().name().equals(name)) {
                return TopologyFiles.countsByRegion(l.sources());
            }
        }
        return null;
    }

    /** Re-reads the configured files (plus what was added at run time) and swaps the table. */
    public synchronized LoadReport reload() throws TopologyException {
        long start = System.nanoTime();
        List<TopologySource> files = configuredFiles();
        TopologyTable t = build(files, over(loads));
        swap(t);
        return report(files, t, start);
    }

    /** A table built for another spec or other run-time loads, not yet in service. */
    public final class Prepared {
        private final Spec next;
        private final List<Loaded> loaded;
        private final TopologyTable table;
        private final List<TopologySource> incoming;
        /** The run-time loads it was built over; null: it replaces whatever is in service. */
        private final List<Loaded> basis;

        private Prepared(
                Spec next,
                List<Loaded> loaded,
                TopologyTable table,
                List<TopologySource> incoming,
                List<Loaded> basis) {
            this.next = next;
            this.loaded = List.copyOf(loaded);
            this.table = table;
            this.incoming = incoming;
            this.basis = basis;
        }

        /** The table it would serve. */
        public TopologyTable table() {
            return table;
        }

        /** The run-time loads it would serve. */
        public List<RuntimeLoad> loads() {
            return loaded.stream().map(Loaded::load).toList();
        }

        /** What the change itself loaded, as a load reports it (nothing for an unload or a revert). */
        public LoadReport report(long startNanos) {
            return LiveTopology.report(incoming, table, startNanos);
        }

        /**
         * Puts the prepared table, spec and run-time loads in service. One prepared from the loads
         * in service (a load, an unload, a revert) is refused when they changed since (a peer's
         * configuration came in between): it would drop that change.
         */
        public void commit() {
            synchronized (LiveTopology.this) {
                if (basis != null && basis != loads) {
                    throw new Overtaken(
                            "the run-time loads changed while this change was prepared (a peer's configuration"
                                    + " came in); nothing changed, try again");
                }
                spec = next;
                loads = loaded;
                swap(table);
            }
        }
    }

    /**
     * Builds the table another configuration's lists and records give, with {@code loads} (what
     * was loaded at run time, in order) over them, without serving it: a configuration change
     * puts it in service together with the rest, or not at all.
     */
    public synchronized Prepared prepare(Spec next, List<RuntimeLoad> loads) throws TopologyException {
        if (loads.size() > MAX_LOADS) { // a peer's configuration may say anything
            throw new TopologyException(List.of(loads.size() + " run-time loads; at most " + MAX_LOADS + " are kept"));
        }
        List<TopologySource> files = TopologyFiles.read(TopologyFiles.expand(next.data()), null);
        List<Loaded> parsed = new ArrayList<>();
        for (RuntimeLoad l : loads) {
            parsed.add(new Loaded(l, TopologyFiles.parse(l.texts(), l.region())));
        }
        return new Prepared(next, parsed, build(next, compose(files, over(parsed))), List.of(), null);
    }

    /**
     * The table with {@code load} over what is in service, not yet served (a dry run shows it; a
     * commit serves it). A load of a name in service replaces that load (and takes its place at
     * the end); a region it holds replaces the region of that name.
     */
    public synchronized Prepared loading(RuntimeLoad load) throws TopologyException {
        List<TopologySource> incoming = TopologyFiles.parse(load.texts(), load.region());
        List<Loaded> next = new ArrayList<>(
                loads.stream().filter(l -> !l.load().name().equals(load.name())).toList());
        if (next.size() >= MAX_LOADS) {
            throw new TopologyException(List.of("at most " + MAX_LOADS + " loads are kept at run time: unload one"
                    + " (gslb topology loads lists them) or revert to the configured table"));
        }
        next.add(new Loaded(load, incoming));
        return rebuilt(next, incoming);
    }

    /** The table without the load named {@code name}: the configured lists and the other loads. */
    public synchronized Prepared unloading(String name) throws TopologyException {
        List<Loaded> next =
                loads.stream().filter(l -> !l.load().name().equals(name)).toList();
        if (next.size() == loads.size()) {
            throw new IllegalArgumentException("no load named '" + RuntimeLoad.printable(name) + "'" + inService());
        }
        return rebuilt(next, List.of());
    }

    /** The configured table: no run-time load. */
    public synchronized Prepared reverting() throws TopologyException {
        return rebuilt(List.of(), List.of());
    }

    /** Adds a load and serves the table at once (no dry run): see {@link #loading}. */
    public LoadReport load(RuntimeLoad load) throws TopologyException {
        long start = System.nanoTime();
        Prepared p = loading(load);
        p.commit();
        return p.report(start);
    }

    private Prepared rebuilt(List<Loaded> next, List<TopologySource> incoming) throws TopologyException {
        return new Prepared(spec, next, build(configuredFiles(), over(next)), incoming, loads);
    }

    private String inService() {
        List<String> names = loads.stream().map(l -> l.load().name()).toList();
        return names.isEmpty()
                ? ": nothing was loaded at run time"
                : "; loaded at run time: " + String.join(", ", names);
    }

    /** The loads' sources, each load's regions replacing those of the same name before it. */
    private static List<TopologySource> over(List<Loaded> loads) {
        List<TopologySource> over = List.of();
        for (Loaded l : loads) {
            over = compose(over, l.sources());
        }
        return over;
    }

    /**
     * {@code base} with every region that {@code over} holds taken out, then {@code over}: a
     * region loaded at run time replaces the configured region of that name, on load and on
     * every reload after it.
     */
    private static List<TopologySource> compose(List<TopologySource> base, List<TopologySource> over) {
        Set<String> replaced = new HashSet<>(TopologyFiles.countsByRegion(over).keySet());
        List<TopologySource> all = new ArrayList<>();
        for (TopologySource s : base) {
            all.add(without(s, replaced));
        }
        all.addAll(over);
        return all;
    }

    private List<TopologySource> configuredFiles() throws TopologyException {
        return TopologyFiles.read(TopologyFiles.expand(spec.data()), null);
    }

    /** Builds from the configured files; a failure also names the sub-folders that were not read. */
    private TopologyTable build(List<TopologySource> files, List<TopologySource> over) throws TopologyException {
        try {
            return build(spec, compose(files, over));
        } catch (TopologyException e) {
            List<Path> unread = TopologyFiles.unreadFolders(spec.data());
            if (unread.isEmpty()) {
                throw e;
            }
            List<String> problems = new ArrayList<>(e.problems());
            problems.add("note: sub-folders are not read: "
                    + unread.stream().map(Path::toString).collect(java.util.stream.Collectors.joining(", "))
                    + " (name the folder of the lists itself)");
            throw new TopologyException(problems);
        }
    }

    private static TopologySource without(TopologySource s, Set<String> regions) {
        return new TopologySource(
                s.file(),
                s.format(),
                s.regions().stream().filter(r -> !regions.contains(r.name())).toList(),
                s.records());
    }

    private static TopologyTable build(Spec spec, List<TopologySource> sources) throws TopologyException {
        List<Region> regions = new ArrayList<>();
        List<TopologyRecord> records = new ArrayList<>(spec.records());
        for (TopologySource s : sources) {
            regions.addAll(s.regions());
            records.addAll(s.records());
        }
        return TopologyTable.build(regions, records, spec.dataCenters());
    }

    private void swap(TopologyTable t) {
        table = t;
        loadedAt = Instant.now();
    }

    private static LoadReport report(List<TopologySource> loaded, TopologyTable t, long startNanos) {
        return new LoadReport(
                TopologyFiles.countsByRegion(loaded),
                t.regions().size(),
                t.prefixCount(),
                t.warnings(),
                Duration.ofNanos(System.nanoTime() - startNanos));
    }
}
