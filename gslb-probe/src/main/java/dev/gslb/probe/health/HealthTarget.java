package dev.gslb.probe.health;

import dev.gslb.settings.HostPort;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;

/**
 * A virtual server with the monitors that check it: every instance checks every one, own side and
 * peer side.
 *
 * @param translation where the monitors check it instead of its address ({@code translation:},
 *     F5's address translation: the service's internal address behind the balancer's NAT), with
 *     the port that replaces each monitor's own when one is given; null: its address. Answers give
 *     its address either way.
 */
public record HealthTarget(VirtualServer server, List<MonitorSpec> monitors, HostPort translation) {
    public HealthTarget {
        monitors = List.copyOf(monitors);
    }

    /** A server its monitors check at its own address. */
    public HealthTarget(VirtualServer server, List<MonitorSpec> monitors) {
        this(server, monitors, null);
    }

    /** A server outside any configuration (tests). */
    public HealthTarget(String name, InetAddress address, String dataCenter, List<MonitorSpec> monitors) {
        this(new VirtualServer(name, address, new DataCenter(dataCenter)), monitors);
    }

    public String name() {
        return server.name();
    }

    public InetAddress address() {
        return server.address();
    }

    public String dataCenter() {
        return server.dataCenter().name();
    }

    /** The address its monitors connect to. */
    public InetAddress checkedAddress() {
        return translation == null ? server.address() : translation.host();
    }

    /** {@code monitor}'s check as run on this server: on the translation's port when it gives one. */
    public Check check(MonitorSpec monitor) {
        return translation == null || translation.port() == HostPort.NO_PORT
                ? monitor.check()
                : monitor.check().atPort(translation.port());
    }

    /** Where the monitors check it as operators write it ("10.0.0.10:8080", "[fd00::10]:8080"), or null: its address. */
    public String checked() {
        if (translation == null) {
            return null;
        }
        String host = Address.of(translation.host()).toString();
        if (translation.port() == HostPort.NO_PORT) {
            return host;
        }
        return (translation.host() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + translation.port();
    }
}
