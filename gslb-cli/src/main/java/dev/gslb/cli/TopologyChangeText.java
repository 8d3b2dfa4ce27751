package dev.gslb.cli;

import dev.gslb.api.TopologyReport;
import dev.gslb.topology.TopologyChange;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * What a topology change does, as the operator reads it: prefixes added, moved and removed, the
 * regions and records involved, and the known LDNS it places otherwise ("chinanet -> TEL =>
 * test -> no record"). Shared by `topology load`, `unload`, `revert` and `import bind-views`.
 */
final class TopologyChangeText {
    private TopologyChangeText() {}

    /** `--dry-run` and `--examples N`, for every command that changes the topology at run time. */
    static final class Options {
        @Option(
                names = "--dry-run",
                description = "Print what would change (prefixes, regions, records, how many known LDNS would move)"
                        + " and change nothing.")
        boolean dryRun;

        @Option(
                names = "--examples",
                paramLabel = "N",
                defaultValue = "10",
                description = "How many prefixes, records and LDNS of each kind to show (0..1000; default 10).")
        int examples;

        /** The query the admin API takes: "?dry-run=true&examples=N". */
        String query() {
            return "?dry-run=" + dryRun + "&examples=" + examples;
        }
    }

    /** The report's headline and totals, then the change. */
    static void print(String done, String would, TopologyReport r) {
        System.out.println(r.dryRun() ? "dry run, nothing changed: " + would + " would" : done);
        r.loaded().forEach((region, n) -> System.out.printf("  %-16s %7d prefixes%n", region, n));
        System.out.printf(
                "%s: %d regions, %d prefixes (built in %d ms)%n",
                r.dryRun() ? "table it would serve" : "table in service", r.regions(), r.prefixes(), r.millis());
        print(r.change(), r.dryRun());
        TopologyCommand.printWarnings(r.warnings());
    }

    static void print(TopologyChange c, boolean dry) {
        if (c == null) {
            return; // a server of before says nothing of the change
        }
        if (c.none()) {
            System.out.println(
                    dry
                            ? "it would change no prefix, record or known LDNS"
                            : "no prefix, record or known LDNS changed");
            return;
        }
        System.out.printf(
                "prefixes: %d added, %d to another region, %d removed%n", c.added(), c.changed(), c.removed());
        for (TopologyChange.PrefixChange p : c.prefixes()) {
            if (p.before() == null) {
                System.out.printf("  + %-43s %s%n", p.prefix(), p.after());
            } else if (p.after() == null) {
                System.out.printf("  - %-43s %s%n", p.prefix(), p.before());
            } else {
                System.out.printf("  ~ %-43s %s -> %s%n", p.prefix(), p.before(), p.after());
            }
        }
        more(c.prefixes().size(), c.added() + c.changed() + c.removed());
        if (!c.regions().isEmpty()) {
            System.out.println("regions (prefixes before -> after): "
                    + c.regions().stream()
                            .map(g -> g.name() + " " + g.before() + " -> " + g.after())
                            .collect(Collectors.joining(", ")));
        }
        if (c.recordsAdded() + c.recordsRemoved() > 0) {
            System.out.printf("records: %d added, %d removed%n", c.recordsAdded(), c.recordsRemoved());
            c.records().forEach(line -> System.out.println("  " + line));
            more(c.records().size(), c.recordsAdded() + c.recordsRemoved());
        }
        System.out.printf(
                "LDNS: %d of the %d in the proximity table %s%n",
                c.ldnsMoved(), c.ldnsKnown(), dry ? "would be placed otherwise" : "are placed otherwise");
        for (TopologyChange.LdnsMove m : c.ldns()) {
            System.out.printf(
                    "  %-39s %s  =>  %s%n",
                    m.ip(), place(m.regionBefore(), m.bestBefore()), place(m.regionAfter(), m.bestAfter()));
        }
        more(c.ldns().size(), c.ldnsMoved());
    }

    private static void more(int shown, long all) {
        if (all > shown) {
            System.out.println("  ... " + (all - shown) + " more (--examples N shows more, --json all counts)");
        }
    }

    /** "chinanet -> TEL", "test -> no record", "no region". */
    static String place(String region, String best) {
        return region == null ? "no region" : region + " -> " + (best == null ? "no record" : best);
    }
}
