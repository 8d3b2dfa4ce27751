package dev.gslb.config;

import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.settings.Section;
import dev.gslb.settings.SectionValues;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsFile;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one configuration file defines so far, shared by the binders of its sections while the
 * file is resolved (each section names what an earlier one defined), and the checks they share.
 */
class Sections {
    final SettingsFile<SectionValues> file;
    final Map<String, DataCenter> dataCenters;
    final Map<String, MonitorSpec> monitors;
    final Map<String, LinkSpec> links;
    final Map<String, VirtualServer> virtualServers;
    final Map<String, PoolSpec> pools;
    final List<HealthTarget> healthTargets;
    final List<LoadTarget> loadTargets;

    Sections(SettingsFile<SectionValues> file) {
        this.file = file;
        this.dataCenters = new LinkedHashMap<>();
        this.monitors = new LinkedHashMap<>();
        this.links = new LinkedHashMap<>();
        this.virtualServers = new LinkedHashMap<>();
        this.pools = new LinkedHashMap<>();
        this.healthTargets = new ArrayList<>();
        this.loadTargets = new ArrayList<>();
    }

    /** A binder of one section over the same file and the names defined so far. */
    Sections(Sections shared) {
        this.file = shared.file;
        this.dataCenters = shared.dataCenters;
        this.monitors = shared.monitors;
        this.links = shared.links;
        this.virtualServers = shared.virtualServers;
        this.pools = shared.pools;
        this.healthTargets = shared.healthTargets;
        this.loadTargets = shared.loadTargets;
    }

    /** What the file gives for {@code section}, else its default. */
    <T> T section(Section<T> section) {
        return file.value().get(section);
    }

    /** {@code key:} with nothing after it is an empty list. */
    static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** The monitors a server or link names, each defined under 'monitors:'. */
    List<MonitorSpec> monitorsNamed(List<String> given, String section, int i) throws SettingsException {
        List<String> names = orEmpty(given);
        List<MonitorSpec> specs = new ArrayList<>();
        for (int m = 0; m < names.size(); m++) {
            MonitorSpec spec = monitors.get(names.get(m));
            if (spec == null) {
                throw file.error(
                        "monitor " + names.get(m) + " is not defined under 'monitors:'; defined: " + monitors.keySet(),
                        section,
                        i,
                        "monitors",
                        m);
            }
            specs.add(spec);
        }
        return specs;
    }

    DataCenter dataCenter(String name, Object... path) throws SettingsException {
        DataCenter dc = dataCenters.get(name);
        if (dc == null) {
            throw file.error(
                    "data center " + name + " is not defined under 'datacenters:'; defined: " + dataCenters.keySet(),
                    path);
        }
        return dc;
    }

    /** A key a section cannot do without: its absence is an error at the section. */
    void required(Object value, String what, String key, Object... path) throws SettingsException {
        if (value == null) {
            throw file.error(what + " needs '" + key + ":'", path);
        }
    }
}
