package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import dev.gslb.config.ConfigFile.LinkEntry;
import dev.gslb.config.ConfigFile.TrafficEntry;
import dev.gslb.probe.health.MonitorSpec;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.InterfaceCounters;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.link.SnmpCounters;
import dev.gslb.probe.link.TrafficSource;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.SettingsException;
import java.net.InetSocketAddress;
import java.time.Duration;
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
        TrafficSpec traffic = traffic(l.traffic(), i);
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

    /** traffic: exactly one of interface or snmp; interval (10 s), window (three intervals). */
    private TrafficSpec traffic(TrafficEntry t, int i) throws SettingsException {
        if (t == null) {
            return null;
        }
        if ((t.iface() == null) == (t.snmp() == null)) {
            throw file.error(
                    "traffic needs exactly one of 'interface:' (this host's) or 'snmp:' (a router's)",
                    "links",
                    i,
                    "traffic");
        }
        try {
            TrafficSource source;
            if (t.iface() != null) {
                source = new InterfaceCounters(t.iface());
            } else {
                var s = t.snmp();
                if (s.address() == null) {
                    throw new IllegalArgumentException("snmp traffic needs 'address:' (the router, host[:port])");
                }
                int port = s.address().port() == dev.gslb.settings.HostPort.NO_PORT
                        ? 161
                        : s.address().port();
                source = new SnmpCounters(
                        new InetSocketAddress(s.address().host(), port),
                        s.community(),
                        s.user(),
                        s.ifName(),
                        s.ifIndex() == null ? 0 : Bounds.within("if-index", s.ifIndex(), 1, Integer.MAX_VALUE),
                        s.facing() == ConfigFile.SnmpFacing.SITE);
            }
            Duration interval = requireNonNullElse(t.interval(), TrafficSpec.DEFAULT_INTERVAL);
            return new TrafficSpec(source, interval, requireNonNullElse(t.window(), interval.multipliedBy(3)));
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "links", i, "traffic");
        }
    }
}
