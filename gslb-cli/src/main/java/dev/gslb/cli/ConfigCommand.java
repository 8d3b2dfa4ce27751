package dev.gslb.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.gslb.api.ConfigDiff;
import dev.gslb.api.ConfigShown;
import dev.gslb.api.ConfigStatus;
import dev.gslb.api.Reloaded;
import dev.gslb.config.ConfigLoader;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.TopologyException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "config",
        description = "Configuration tools.",
        subcommands = {
            ConfigCommand.Check.class,
            ConfigCommand.Reload.class,
            ConfigCommand.Status.class,
            ConfigCommand.Diff.class,
            ConfigCommand.Show.class
        })
final class ConfigCommand {
    @Command(
            name = "check",
            description = "Validate a YAML configuration (and its zone files); errors are file:line: message.")
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        public Integer call() {
            try {
                var c = ConfigLoader.load(file);
                var t = c.loadTopology().table();
                System.out.printf(
                        "%s: OK: %d zone(s), %d wide IP(s), %d data center(s), topology %d regions," + " %d prefixes%n",
                        file,
                        c.zones().size(),
                        c.wideIps().size(),
                        c.dataCenters().size(),
                        t.regions().size(),
                        t.prefixCount());
                return 0;
            } catch (SettingsException e) {
                System.err.println(e.getMessage());
                return 1;
            } catch (TopologyException e) {
                System.err.println(ServeCommand.TOPOLOGY_REFUSED + "\n" + e.getMessage());
                return 1;
            }
        }
    }

    @Command(
            name = "reload",
            description = "Make the running server re-read its configuration (also: kill -HUP). "
                    + "A configuration that does not load changes nothing.")
    static final class Reload implements Callable<Integer> {
        @Mixin
        AdminOption admin;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(
                    admin.client().post("/config/reload", ""),
                    json,
                    Reloaded.class,
                    r -> System.out.println("reloaded: " + r.zones() + " zone(s), " + r.wideIps()
                            + " wide IP(s); configuration generation " + r.generation() + " from " + r.origin()));
        }
    }

    @Command(
            name = "status",
            description = "The shared configuration's generation and digest here and on each peer, and whether the"
                    + " pair is in sync.")
    static final class Status extends Reading<ConfigStatus> {
        Status() {
            super("/config/status", ConfigStatus.class);
        }

        @Override
        void print(ConfigStatus s) {
            String row = "%-16s %-10s %-16s %-14s %-5s %s%n";
            System.out.printf(row, "INSTANCE", "GENERATION", "ORIGIN", "DIGEST", "SYNC", "STATE");
            System.out.printf(
                    row,
                    s.instance() + " (here)",
                    s.generation(),
                    s.origin(),
                    s.digest().substring(0, 12),
                    s.sync() ? "on" : "off",
                    s.refused() == null
                            ? ""
                            : "refused " + s.refused().lines().findFirst().orElse(""));
            for (ConfigStatus.Peer p : s.peers()) {
                System.out.printf(
                        row,
                        p.name(),
                        p.generation() == null ? "-" : p.generation(),
                        p.origin() == null ? "-" : p.origin(),
                        p.digest() == null ? "-" : p.digest().substring(0, 12),
                        p.sync() == null ? "-" : p.sync() ? "on" : "off",
                        state(p));
            }
            List<String> away = s.peers().stream()
                    .filter(p -> !p.connected())
                    .map(ConfigStatus.Peer::name)
                    .toList();
            System.out.println(
                    s.inSync()
                            ? "in sync"
                            : away.isEmpty()
                                    ? "NOT in sync"
                                    : "NOT in sync: not connected to " + String.join(", ", away));
            if (s.runtime() != null) {
                ConfigStatus.Runtime r = s.runtime();
                System.out.println("runtime states (gslb maintenance): generation " + r.generation()
                        + (r.origin().isEmpty() ? "" : " from " + r.origin())
                        + r.peers().entrySet().stream()
                                .map(e -> "; " + e.getKey() + " " + e.getValue())
                                .collect(java.util.stream.Collectors.joining()));
            }
            if (s.keys() != null) {
                s.keys()
                        .zones()
                        .forEach((zone, digest) -> System.out.println("dnssec keys of " + zone + ": " + digest
                                + s.peers().stream()
                                        .map(p -> "; " + p.name() + " " + keysAt(s.keys(), p.name(), zone, digest))
                                        .collect(java.util.stream.Collectors.joining())));
            }
        }
    }

    /** What a peer holds of a zone's keys made here, in a word or two. */
    static String keysAt(ConfigStatus.Keys keys, String peer, String zone, String digest) {
        java.util.Map<String, String> of = keys.peers().get(peer);
        if (of == null) {
            return "not heard yet";
        }
        String theirs = of.get(zone);
        return theirs == null ? "LACKS THEM" : theirs.equals(digest) ? "same" : "OTHER KEYS " + theirs;
    }

    @Command(
            name = "show",
            description = "The configuration in service as YAML: every section, defaults filled in, the shared"
                    + " generation in service applied, secrets shown as <redacted>.")
    static final class Show extends Reading<ConfigShown> {
        /** Quotes only where YAML needs them; a string that reads as a number or boolean keeps its quotes. */
        private static final YAMLMapper YAML = YAMLMapper.builder()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                .build();

        Show() {
            super("/config/show", ConfigShown.class);
        }

        @Override
        void print(ConfigShown c) {
            System.out.println("# " + c.instance() + ": configuration generation " + c.generation() + " from "
                    + c.origin() + " (digest " + c.digest().substring(0, 12) + ")"
                    + (c.runtimeLoads() == 0
                            ? ""
                            : "; " + c.runtimeLoads() + " topology list(s) loaded at run time (gslb topology list)"));
            try {
                System.out.print(YAML.writeValueAsString(c.configuration()));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A subcommand that reads one admin route and prints its answer (the JSON itself with --json). */
    abstract static class Reading<T> implements Callable<Integer> {
        @Mixin
        AdminOption admin;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        private final String path;
        private final Class<T> type;

        Reading(String path, Class<T> type) {
            this.path = path;
            this.type = type;
        }

        /** The route read, with its query. */
        String path() {
            return path;
        }

        abstract void print(T answer);

        @Override
        public Integer call() throws Exception {
            return AdminReply.print(admin.client().get(path()), json, type, this::print);
        }
    }

    /** A peer's STATE column: an unreachable one with how long ago it was last heard. */
    static String state(ConfigStatus.Peer p) {
        if (p.refusedOurs() != null) {
            return ConfigStatus.REFUSED + ": "
                    + p.refusedOurs().lines().findFirst().orElse("");
        }
        if (p.state().equals(ConfigStatus.DIFFERS)) {
            return ConfigStatus.DIFFERS + " (gslb config diff " + p.name() + ")";
        }
        if (!p.connected() && p.heard() != null) {
            long ago = java.time.Duration.between(java.time.Instant.parse(p.heard()), java.time.Instant.now())
                    .toSeconds();
            return p.state() + " (unreachable, last heard " + Math.max(0, ago) + " s ago)";
        }
        return p.state();
    }

    @Command(name = "diff", description = "What differs between the shared configuration here and on PEER.")
    static final class Diff extends Reading<ConfigDiff> {
        @Parameters(paramLabel = "PEER")
        String peer;

        Diff() {
            super("/config/diff?peer=", ConfigDiff.class);
        }

        @Override
        String path() {
            return super.path() + URLEncoder.encode(peer, StandardCharsets.UTF_8);
        }

        @Override
        void print(ConfigDiff d) {
            if (d.peerState() != null && d.peerState().startsWith(ConfigStatus.UNKNOWN)) {
                System.out.println(d.peer() + " is not connected (" + d.peerState()
                        + "): compared with what it served when last heard");
            }
            if (d.same()) {
                System.out.println("the same configuration as " + d.peer());
            }
            d.lines().forEach(System.out::println);
        }
    }
}
