package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadSpec;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.load.Metric;
import dev.gslb.probe.load.ServerLimits;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.HostPort;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import dev.gslb.site.DataCenter;
import dev.gslb.site.Dependencies;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.List;

/** The {@code virtual-servers:} section: servers in data centers behind links, what they depend on, where they are checked and their load. */
final class ServerBinder extends Sections {
    /** One entry of {@code virtual-servers:} as written: its data center, link and monitors by name. */
    record VirtualServerEntry(
            String name,
            InetAddress address,
            String datacenter,
            String link,
            List<String> monitors,
            Integer ratio,
            Integer order,
            List<String> dependsOn,
            String translation,
            Integer score,
            LoadSpec load,
            ServerLimits limits) {
        static final Section<List<VirtualServerEntry>> SECTION =
                Section.list("virtual-servers", VirtualServerEntry.class);
    }

    ServerBinder(Sections shared) {
        super(shared);
    }

    void virtualServers() throws SettingsException {
        List<VirtualServerEntry> given = section(VirtualServerEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            virtualServer(given.get(i), i);
        }
        dependencies(given);
    }

    /** After every server is bound (a server may depend on one listed after it): names known, none itself, no cycle. */
    private void dependencies(List<VirtualServerEntry> given) throws SettingsException {
        for (int i = 0; i < given.size(); i++) {
            List<String> on = orEmpty(given.get(i).dependsOn());
            for (int k = 0; k < on.size(); k++) {
                if (on.get(k).equals(given.get(i).name())) {
                    throw file.error(
                            "virtual server " + on.get(k) + " depends on itself",
                            "virtual-servers",
                            i,
                            "depends-on",
                            k);
                }
                if (!virtualServers.containsKey(on.get(k))) {
                    throw file.error(
                            "virtual server " + given.get(i).name() + " depends on " + on.get(k)
                                    + ", which is not defined; defined: " + virtualServers.keySet(),
                            "virtual-servers",
                            i,
                            "depends-on",
                            k);
                }
            }
        }
        List<String> cycle = Dependencies.cycle(List.copyOf(virtualServers.values()));
        if (!cycle.isEmpty()) { // pointed at where the first server of the cycle names the second
            int i = List.copyOf(virtualServers.keySet()).indexOf(cycle.getFirst());
            throw file.error(
                    "virtual servers depend on each other in a cycle: " + String.join(" -> ", cycle),
                    "virtual-servers",
                    i,
                    "depends-on",
                    given.get(i).dependsOn().indexOf(cycle.get(1)));
        }
    }

    private void virtualServer(VirtualServerEntry v, int i) throws SettingsException {
        required(v.name(), "virtual server", "name", "virtual-servers", i);
        required(v.address(), "virtual server", "address", "virtual-servers", i);
        required(v.datacenter(), "virtual server", "datacenter", "virtual-servers", i);
        DataCenter dc = dataCenter(v.datacenter(), "virtual-servers", i, "datacenter");
        String link = linkOf(v, dc, i);
        VirtualServer vs;
        try {
            vs = new VirtualServer(
                    v.name(),
                    v.address(),
                    dc,
                    Bounds.within("ratio", requireNonNullElse(v.ratio(), 1), 0, 1_000_000),
                    Bounds.within("order", requireNonNullElse(v.order(), 0), 0, 1_000_000),
                    link,
                    virtualServers.size());
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "virtual-servers", i);
        }
        if (v.score() != null) {
            try {
                vs = vs.withScore(Bounds.within("score", v.score(), 0, 100));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "virtual-servers", i, "score");
            }
        }
        vs = vs.withDependsOn(orEmpty(v.dependsOn()));
        if (virtualServers.put(v.name(), vs) != null) {
            throw file.error("virtual server " + v.name() + " is defined twice", "virtual-servers", i);
        }
        load(v, i);
        healthTargets.add(new HealthTarget(vs, monitorsNamed(v.monitors(), "virtual-servers", i), translation(v, i)));
    }

    /** {@code translation: "ADDR:PORT"}, {@code "[ADDR]:PORT"} or an address alone: where monitors check it. */
    private HostPort translation(VirtualServerEntry v, int i) throws SettingsException {
        if (v.translation() == null) {
            return null;
        }
        HostPort t;
        try {
            t = HostPort.parse(v.translation());
        } catch (IllegalArgumentException e) {
            t = null;
        }
        if (t == null || t.port() == 0) {
            throw file.error(
                    "virtual server " + v.name() + ": translation '" + v.translation()
                            + "' is not an address, ADDR:PORT or [ADDR]:PORT with a port 1-65535"
                            + " (10.0.0.10, 10.0.0.10:8080, [fd00::10]:8080)",
                    "virtual-servers",
                    i,
                    "translation");
        }
        return t;
    }

    /** A server's {@code load:} and {@code limits:}: a limit needs a source that reads its metric. */
    private void load(VirtualServerEntry v, int i) throws SettingsException {
        if (v.load() == null && v.limits() == null) {
            return;
        }
        Metric unread = LoadTarget.unmeasured(v.load(), v.limits());
        if (unread != null) {
            throw file.error(
                    "virtual server " + v.name() + " has a limit on " + ServerLimits.key(unread)
                            + " but no source under 'load:' reads " + unread.key()
                            + (v.load() == null
                                    ? " (it has no 'load:')"
                                    : " (its sources read "
                                            + v.load().metrics().stream()
                                                    .map(Metric::key)
                                                    .toList() + ")"),
                    "virtual-servers",
                    i,
                    "limits",
                    ServerLimits.key(unread));
        }
        if (v.load() != null) {
            loadTargets.add(new LoadTarget(v.name(), v.datacenter(), v.load(), v.limits()));
        }
    }

    /** The link a server names, or else the only link of its data center, or null. */
    private String linkOf(VirtualServerEntry v, DataCenter dc, int i) throws SettingsException {
        if (v.link() == null) {
            List<LinkSpec> own = links.values().stream()
                    .filter(l -> l.dataCenter().equals(dc.name()))
                    .toList();
            return own.size() == 1 ? own.getFirst().name() : null;
        }
        LinkSpec l = links.get(v.link());
        if (l == null) {
            throw file.error(
                    "link " + v.link() + " is not defined under 'links:'; defined: " + links.keySet(),
                    "virtual-servers",
                    i,
                    "link");
        }
        if (!l.dataCenter().equals(dc.name())) {
            throw file.error(
                    "virtual server " + v.name() + " is in " + dc.name() + " but link " + l.name() + " is in "
                            + l.dataCenter(),
                    "virtual-servers",
                    i,
                    "link");
        }
        return l.name();
    }
}
