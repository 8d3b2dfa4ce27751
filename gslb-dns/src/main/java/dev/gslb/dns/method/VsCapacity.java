package dev.gslb.dns.method;

import dev.gslb.site.ServerLoad;

/**
 * The virtual server with the most servers up behind it wins (F5's virtual-server-capacity; what
 * a balancer such as HAProxy reports of its backend). Unknown: left out; none up is no capacity,
 * left out too. None left: passes. Ties keep the candidates' order.
 */
public final class VsCapacity extends HighestFigure {
    @Override
    public String name() {
        return "vs-capacity";
    }

    @Override
    public java.util.Set<dev.gslb.probe.load.Metric> readsLoad() {
        return java.util.Set.of(dev.gslb.probe.load.Metric.SERVERS_UP);
    }

    @Override
    int figure(Candidates c, int i) {
        ServerLoad load = c.state(i).load();
        return load == null ? -1 : load.serversUp();
    }

    @Override
    String describe(int up) {
        return up < 0
                ? "servers up unknown, left out"
                : up == 0 ? "no server up behind it, left out" : up + " servers up";
    }

    @Override
    String missing() {
        return "a known server up behind it";
    }
}
