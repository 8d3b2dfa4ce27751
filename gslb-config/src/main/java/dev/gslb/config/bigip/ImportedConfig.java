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

    /** Our pool names and their F5 type (a, aaaa, cname): a wide IP names a pool of its type. */
    final Map<String, String> poolTypes = new HashMap<>();

    /** A port of a server each "*:*" monitor checks (ours needs one written; translation: replaces it). */
    final Map<String, String> monitorPorts = new HashMap<>();

    /**
     * A tcp monitor needs a port here. F5's {@code *:*} checks each server's own port, which is
     * written as each server's {@code translation:} port; the monitor's own port is then never used,
     * and is one of its servers' ports. The other kinds have a default port.
     */
    void monitorPorts(ImportReport report) {
        for (var e : monitors.entrySet()) {
            Map<String, Object> m = e.getValue();
            if (m.get("type").equals("tcp") && !m.containsKey("port")) {
                String port = monitorPorts.get(e.getKey());
                m.put("port", port == null || port.equals("*") ? 80 : Integer.valueOf(port));
                if (port == null || port.equals("*")) {
                    report.different("monitor", e.getKey(), 1, "destination *:* on servers without a port: port 80");
                }
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
        for (String candidate : List.of(f5Name, f5Name + "-" + type)) {
            if (type.equals(poolTypes.get(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    /** The zones of the wide IPs: the given files, else one made up per parent name. */
    List<Map<String, Object>> zones(Map<Name, String> given, ImportReport report) {
        Set<Name> made = new LinkedHashSet<>();
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
                made.add(n.labels() <= 3 ? n : new Name(n, 1));
            }
        }
        List<Name> parents = new ArrayList<>(made);
        parents.sort(Comparator.comparingInt(Name::labels));
        List<Name> kept = new ArrayList<>();
        for (Name z : parents) {
            if (kept.stream().noneMatch(z::subdomain)) {
                kept.add(z);
            }
        }
        List<Map<String, Object>> zones = new ArrayList<>();
        for (Name z : used) {
            zones.add(F5Values.entry("file", given.get(z), "origin", z.toString(true)));
        }
        for (Name z : kept) {
            String origin = z.toString(true);
            String fileName = "zones/" + origin + ".zone";
            madeFiles.put(
                    fileName,
                    "; made up by gslb import bigip for the wide IPs of " + origin
                            + ": replace it with your zone (gslb import bigip --zone FILE)\n"
                            + "$ORIGIN " + origin + ".\n$TTL 3600\n"
                            + "@ IN SOA ns1 hostmaster 1 3600 600 1209600 30\n"
                            + "@ IN NS ns1\n");
            zones.add(F5Values.entry("file", fileName, "origin", origin));
            report.different(
                    "zone",
                    origin,
                    1,
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
