package dev.gslb.probe.health;

import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.List;

/** A virtual server with the monitors that check it: every instance checks every one, own side and peer side. */
public record HealthTarget(VirtualServer server, List<MonitorSpec> monitors) {
    public HealthTarget {
        monitors = List.copyOf(monitors);
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
}
