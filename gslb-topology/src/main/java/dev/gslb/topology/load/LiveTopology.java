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
 * The topology table in service. Every change (start, reload, a load through the admin API)
 * builds a complete new table off to the side and swaps it in with one volatile write; a load
 * that fails throws and leaves the table in service untouched. Readers never wait.
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

    private volatile Spec spec;
    private volatile TopologyTable table;
    private volatile Instant loadedAt;
    /** Sources added at run time by `gslb topology load`; kept across reloads, not across restarts. */
    private List<TopologySource> added = List.of();

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

    /** Re-reads the configured files (plus what was added at run time) and swaps the table. */
    public synchronized LoadReport reload() throws TopologyException {
        long start = System.nanoTime();
        List<TopologySource> files = configuredFiles();
        TopologyTable t = build(files, added);
        swap(t);
        return report(files, t, start);
    }

    /** What one `gslb topology load` added: file name -> content, and the region it named (or null). */
    public record Load(Map<String, String> texts, String region) {}

    /** A table built for another spec, not yet in service. */
    public final class Prepared {
        private final Spec next;
        private final List<TopologySource> loaded;
        private final TopologyTable table;

        private Prepared(Spec next, List<TopologySource> loaded, TopologyTable table) {
            this.next = next;
            this.loaded = loaded;
            this.table = table;
        }

        /** Puts the prepared table, spec and run-time loads in service. */
        public void commit() {
            synchronized (LiveTopology.this) {
                spec = next;
                added = loaded;
                swap(table);
            }
        }
    }

    /**
     * Builds the table another configuration's lists and records give, with {@code loads} (what
     * `gslb topology load` added, in order) over them, without serving it: a configuration change
     * puts it in service together with the rest, or not at all.
     */
    public synchronized Prepared prepare(Spec next, List<Load> loads) throws TopologyException {
        List<TopologySource> files = TopologyFiles.read(TopologyFiles.expand(next.data()), null);
        List<TopologySource> over = List.of();
        for (Load l : loads) {
            over = compose(over, TopologyFiles.parse(l.texts(), l.region()));
        }
        return new Prepared(next, List.copyOf(over), build(next, compose(files, over)));
    }

    /**
     * Adds uploaded texts (file name -> content); a region they contain replaces the region of
     * the same name in service. {@code region}, when given, names the region of every text.
     */
    public synchronized LoadReport load(Map<String, String> texts, String region) throws TopologyException {
        long start = System.nanoTime();
        List<TopologySource> incoming = TopologyFiles.parse(texts, region);
        List<TopologySource> kept = compose(added, incoming);
        TopologyTable t = build(configuredFiles(), kept);
        added = List.copyOf(kept);
        swap(t);
        return report(incoming, t, start);
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
