package dev.gslb.probe.health;

import java.net.InetAddress;
import java.util.List;

/** A virtual server as the monitors see it: every instance checks every one, own side and peer side. */
public record HealthTarget(String name, InetAddress address, String dataCenter, List<MonitorSpec> monitors) {
    public HealthTarget {
        monitors = List.copyOf(monitors);
    }
}
