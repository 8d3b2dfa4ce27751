package dev.gslb.config.bigip;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * The configuration an import is writing, section by section, as YAML-ready maps in F5's order:
 * what the object imports ({@link ServerImport}, {@link PoolImport}, {@link WideIpImport}) add to
 * and look up in, and what is finished and written at the end.
 */
final class ImportedConfig {
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    final List<String> dataCenters = new ArrayList<>();

    final Map<String, Map<String, Object>> monitors = new LinkedHashMap<>();

    final Map<String, Map<String, Object>> links = new LinkedHashMap<>();

    /** Ours by F5's "server:vs" (both without partition). */
    final Map<String, Map<String, Object>> virtualServers = new LinkedHashMap<>();

    final Map<String, Map<String, Object>> pools = new LinkedHashMap<>();

    final Map<String, Map<String, Object>> wideIps = new LinkedHashMap<>();

    final Map<String, Object> probe = new LinkedHashMap<>();

    final Map<String, Object> loadBalancing = new LinkedHashMap<>();

    final Set<String> manualResumeMonitors = new LinkedHashSet<>();

    final Map<String, String> madeFiles = new TreeMap<>();

    /** Our pool names by F5's type and name ("a web"): a wide IP names a pool of its type. */
    final Map<String, String> poolTypes = new HashMap<>();

    /** Our virtual server names. */
    final Set<String> vsNames = new java.util.HashSet<>();

    /** The port each virtual server ("server:vs") is checked at, 0 for none: what F5's "*:*" monitors use. */
    final Map<String, Integer> vsPorts = new HashMap<>();

    /** Where each wide IP was defined, for the report. */
    final Map<String, Integer> wideIpLines = new HashMap<>();

    /** Where each monitor was defined, for the report. */
    final Map<String, Integer> monitorLines = new HashMap<>();

    /**
     * The monitor that checks a server at {@code port} for {@code monitor}: the monitor itself when
     * it has a port of its own (F5's "*:80") or the server has none, else a copy with that port
     * (F5's "*:*" checks each server's port; ours checks the monitor's).
     */
    String checkAt(String monitor, int port) {
        Map<String, Object> m = monitors.get(monitor);
        if (port == 0
                || m.containsKey("port")
                || m.get("type").equals("icmp")
                || m.get("type").equals("external")) {
            return monitor;
        }
        String copy = monitor + "-" + port;
        if (!monitors.containsKey(copy)) {
            Map<String, Object> c = new LinkedHashMap<>(m);
            c.put("name", copy);
            c.put("port", port);
            monitors.put(copy, c);
        }
        return copy;
    }

    /**
     * The monitors once every server is read: an F5 "*:*" monitor every server of which took a
     * copy with its port is not written; a tcp monitor still without a port (its servers have none)
     * checks port 80, said in the report.
     */
    @SuppressWarnings("unchecked")
    void finishMonitors(ImportReport report) {
        Set<String> used = new java.util.HashSet<>();
        for (var v : virtualServers.values()) {
            used.addAll((List<String>) v.getOrDefault("monitors", List.of()));
        }
        for (var l : links.values()) {
            used.addAll((List<String>) l.getOrDefault("monitors", List.of()));
        }
        for (var it = monitors.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            Map<String, Object> m = e.getValue();
            if (m.containsKey("port") || used.contains(e.getKey())) {
                if (m.get("type").equals("tcp") && !m.containsKey("port")) {
                    m.put("port", 80);
                    report.different(
                            "monitor",
                            e.getKey(),
                            monitorLines.getOrDefault(e.getKey(), 1),
                            "destination *:* on servers without a port: port 80");
                }
                continue;
            }
            boolean copied = monitors.keySet().stream().anyMatch(k -> k.startsWith(e.getKey() + "-"));
            if (copied) {
                it.remove(); // each of its servers has a copy with its own port
            } else if (m.get("type").equals("tcp")) {
                m.put("port", 80);
            }
        }
    }

    /** Servers of manual-resume pools get copies of their monitors that hold them down until resumed. */
    @SuppressWarnings("unchecked")
    void applyManualResume() {
        for (String key : manualResumeMonitors) {
            Map<String, Object> vs = virtualServers.get(key);
            List<String> own = (List<String>) vs.get("monitors");
            if (own == null || own.isEmpty()) {
                continue;
            }
            List<String> held = new ArrayList<>();
            for (String m : own) {
                String copy = m + "-manual-resume";
                if (!monitors.containsKey(copy)) {
                    Map<String, Object> c = new LinkedHashMap<>(monitors.get(m));
                    c.put("name", copy);
                    c.put("manual-resume", true);
                    monitors.put(copy, c);
                }
                held.add(copy);
            }
            vs.put("monitors", held);
        }
    }

    /** Our name of the imported pool {@code f5Name} of {@code type} (renamed NAME-TYPE when another type has the name), or null. */
    String poolOf(String f5Name, String type) {
        return poolTypes.get(type + " " + f5Name);
    }

    /** The zones of the wide IPs: the given files, else one made up per parent name. */
    List<Map<String, Object>> zones(Map<Name, String> given, ImportReport report) {
        Map<Name, Integer> made = new java.util.HashMap<>(); // a zone to make up -> the first line naming it
        Set<Name> used = new LinkedHashSet<>();
        for (Map<String, Object> w : wideIps.values()) {
            Name n;
            try {
                String s = (String) w.get("name");
                n = Name.fromString(s.startsWith("*.") ? s.substring(2) : s, Name.root);
            } catch (TextParseException e) {
                continue; // refused when read
            }
            Name best = null;
            for (Name z : given.keySet()) {
                if (n.subdomain(z) && (best == null || z.labels() > best.labels())) {
                    best = z;
                }
            }
            if (best != null) {
                used.add(best);
            } else {
                made.merge(n.labels() <= 3 ? n : new Name(n, 1), wideIpLines.getOrDefault(w.get("name"), 1), Math::min);
            }
        }
        List<Name> parents = new ArrayList<>(made.keySet());
        parents.sort(Comparator.comparingInt(Name::labels).thenComparing(n -> n.toString()));
        Set<Name> kept = new LinkedHashSet<>();
        for (Name z :
                parents) { // a zone inside another made-up one is part of it: its ancestors, not every zone, looked up
            boolean inside = false;
            for (int k = 1; k < z.labels() - 1 && !inside; k++) {
                inside = kept.contains(new Name(z, k));
            }
            if (!inside) {
                kept.add(z);
            }
        }
        List<Map<String, Object>> zones = new ArrayList<>();
        for (Name z : given.keySet()) {
            if (used.contains(z)) {
                zones.add(F5Values.entry("file", given.get(z), "origin", z.toString(true)));
            } else {
                report.unsupported(
                        "zone", z.toString(true), 1, given.get(z) + " holds no wide IP imported: not written");
            }
        }
        for (Name z : kept) {
            String origin = z.toString(true);
            // a file name stays short whatever the origin (names reach 253 characters; files 255 bytes)
            String fileName = "zones/"
                    + (origin.length() <= 200
                            ? origin
                            : origin.substring(0, 150) + "-" + Integer.toHexString(origin.hashCode()))
                    + ".zone";
            madeFiles.put(
                    fileName,
                    "; made up by gslb import bigip for the wide IPs of " + origin
                            + ": replace it with your zone (gslb import bigip --zone FILE)\n"
                            + "$ORIGIN " + origin + ".\n$TTL 3600\n"
                            + (origin.length() < 240 // ns1.ORIGIN must stay a name of at most 255 bytes
                                    ? "@ IN SOA ns1 hostmaster 1 3600 600 1209600 30\n@ IN NS ns1\n"
                                    : "@ IN SOA @ @ 1 3600 600 1209600 30\n@ IN NS @\n"));
            zones.add(F5Values.entry("file", fileName, "origin", origin));
            report.different(
                    "zone",
                    origin,
                    made.get(z),
                    "no zone file given: " + fileName + " made up (SOA and NS only) for the"
                            + " wide IPs in it; give yours with --zone FILE");
        }
        return zones;
    }

    String yaml(String file, List<Map<String, Object>> zones, List<String> topologyData, boolean topology) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("zones", zones);
        out.put("datacenters", dataCenters);
        if (!monitors.isEmpty()) {
            out.put("monitors", new ArrayList<>(monitors.values()));
        }
        if (!links.isEmpty()) {
            out.put("links", new ArrayList<>(links.values()));
        }
        out.put("virtual-servers", new ArrayList<>(virtualServers.values()));
        out.put("pools", new ArrayList<>(pools.values()));
        out.put("wide-ips", new ArrayList<>(wideIps.values()));
        if (!loadBalancing.isEmpty()) {
            out.put("load-balancing", loadBalancing);
        }
        List<String> data = new ArrayList<>(topologyData);
        if (topology) {
            data.add(BigIpImport.TOPOLOGY_FILE);
            out.put("topology", Map.of("data", data));
        }
        if (!probe.isEmpty()) {
            out.put("probe", probe);
        }
        try {
            return "# Imported from " + file + " by gslb import bigip; every line of it is in import-report.txt.\n"
                    + "# Add this instance's own keys (instance:, dns: listen:, sync:) before serving it.\n"
                    + YAML.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
