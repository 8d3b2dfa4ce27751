package dev.gslb.topology;

import dev.gslb.topology.load.TopologyFiles;
import dev.gslb.topology.load.TopologySource;
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
    public record LoadReport(Map<String, Integer> loaded, int regions, int prefixes, List<String> warnings,
                             Duration took) {}

    private final Spec spec;
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
        List<TopologySource> all = new ArrayList<>(files);
        all.addAll(added);
        TopologyTable t = build(all);
        swap(t);
        return report(files, t, start);
    }

    /**
     * Adds uploaded texts (file name -> content); a region they contain replaces the region of
     * the same name in service. {@code region}, when given, names the region of every text.
     */
    public synchronized LoadReport load(Map<String, String> texts, String region) throws TopologyException {
        long start = System.nanoTime();
        List<TopologySource> incoming = TopologyFiles.parse(texts, region);
        Set<String> replaced = new HashSet<>(TopologyFiles.countsByRegion(incoming).keySet());
        List<TopologySource> kept = new ArrayList<>();
        for (TopologySource s : added) {
            kept.add(without(s, replaced));
        }
        kept.addAll(incoming);
        List<TopologySource> files = configuredFiles();
        List<TopologySource> all = new ArrayList<>();
        for (TopologySource s : files) {
            all.add(without(s, replaced));
        }
        all.addAll(kept);
        TopologyTable t = build(all);
        added = List.copyOf(kept);
        swap(t);
        return report(incoming, t, start);
    }

    private List<TopologySource> configuredFiles() throws TopologyException {
        return TopologyFiles.read(TopologyFiles.expand(spec.data()), null);
    }

    private static TopologySource without(TopologySource s, Set<String> regions) {
        return new TopologySource(s.file(), s.format(),
                s.regions().stream().filter(r -> !regions.contains(r.name())).toList(), s.records());
    }

    private TopologyTable build(List<TopologySource> sources) throws TopologyException {
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
        return new LoadReport(TopologyFiles.countsByRegion(loaded), t.regions().size(), t.prefixCount(),
                t.warnings(), Duration.ofNanos(System.nanoTime() - startNanos));
    }
}
