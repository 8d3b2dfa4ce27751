package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import java.net.InetAddress;
import java.util.List;

/** The {@code links:} section: each ISP link with its limits, traffic source, gateways and monitors. */
final class LinkBinder extends Sections {
    /** One entry of {@code links:} as written; bandwidths stay text: a percentage needs the link's capacity to mean anything. */
    record LinkEntry(
            String name,
            String datacenter,
            String capacity,
            String limitIn,
            String limitOut,
            String resume,
            TrafficSpec traffic,
            List<InetAddress> gateways,
            List<String> monitors) {
        static final Section<List<LinkEntry>> SECTION = Section.list("links", LinkEntry.class);
    }

    LinkBinder(Sections shared) {
        super(shared);
    }

    void links() throws SettingsException {
        List<LinkEntry> given = section(LinkEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            link(given.get(i), i);
        }
    }

    /** links: name, datacenter, capacity, limit-in, limit-out, resume, traffic, gateways, monitors. */
    private void link(LinkEntry l, int i) throws SettingsException {
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
                    orEmpty(l.gateways()),
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
