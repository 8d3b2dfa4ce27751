package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.config.ConfigFile.LinkEntry;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.settings.SettingsException;
import java.util.List;

/** The {@code links:} section: each ISP link with its limits, traffic source, gateways and monitors. */
final class LinkBinder extends Sections {
    LinkBinder(Sections shared) {
        super(shared);
    }

    /** links: name, datacenter, capacity, limit-in, limit-out, resume, traffic, gateways, monitors. */
    void link(LinkEntry l, int i) throws SettingsException {
        required(l.name(), "link", "name", "links", i);
        required(l.datacenter(), "link", "datacenter", "links", i);
        String dc = dataCenter(l.datacenter(), "links", i, "datacenter").name();
        Bandwidth capacity = bandwidth(l.capacity(), null, i, "capacity");
        Bandwidth in = bandwidth(l.limitIn(), capacity, i, "limit-in");
        Bandwidth out = bandwidth(l.limitOut(), capacity, i, "limit-out");
        String resume = requireNonNullElse(l.resume(), "90%");
        if (in != null || out != null) { // checked here to point at the key; a percentage is of each limit
            bandwidth(resume, in != null ? in : out, i, "resume");
        }
        List<MonitorSpec> linkMonitors = monitorsNamed(l.monitors(), "links", i);
        TrafficSpec traffic = l.traffic();
        try {
            LinkSpec spec = new LinkSpec(
                    l.name(),
                    dc,
                    capacity,
                    in,
                    out,
                    LinkSpec.resume(in, resume),
                    LinkSpec.resume(out, resume),
                    traffic,
                    ConfigFile.orEmpty(l.gateways()),
                    linkMonitors);
            if (links.put(l.name(), spec) != null) {
                throw new IllegalArgumentException("link " + l.name() + " is defined twice");
            }
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "links", i);
        }
    }

    private Bandwidth bandwidth(String text, Bandwidth capacity, int i, String key) throws SettingsException {
        try {
            return text == null ? null : Bandwidth.parse(text, capacity);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "links", i, key);
        }
    }
}
