package dev.gslb.server.alert;

import dev.gslb.api.Event;
import dev.gslb.api.PeerStatus;
import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.link.LinkMonitor;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import dev.gslb.sync.PeerSync;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Turns what this instance sees change into alert events, once per change: its monitors' view of
 * each virtual server (UP to DOWN, DOWN to UP; a server first found DOWN counts, one first found
 * UP does not), the links of its data center (state, and crossing the traffic limit), and its
 * peer connections and whether the sync group serves one configuration (both watched every
 * {@code peerPoll}).
 */
public final class StateChanges implements AutoCloseable {
    private final Alerts alerts;
    private final Map<String, HealthState> servers = new ConcurrentHashMap<>();
    private final Map<String, LinkState> links = new ConcurrentHashMap<>();
    private final Map<String, String> peers = new ConcurrentHashMap<>();
    private final Thread peerWatch;
    private String drift;
    /** The DNSSEC problems last seen: zone -> why. */
    private final Map<String, String> dnssec = new java.util.HashMap<>();

    public StateChanges(
            Alerts alerts,
            HealthMonitor health,
            Function<String, String> serverDataCenter,
            LinkMonitor linkMonitor,
            String dataCenter,
            PeerSync sync,
            java.util.function.Supplier<String> configDrift,
            java.util.function.Supplier<Map<String, String>> dnssecProblems,
            Duration peerPoll) {
        this.alerts = alerts;
        health.onChange((server, now) -> {
            HealthState before = servers.put(server, now);
            String dc = serverDataCenter.apply(server);
            if (now == HealthState.DOWN && before != HealthState.DOWN) {
                alerts.raise(Event.Kind.SERVER_DOWN, server, dc, reason(health, server));
            } else if (now == HealthState.UP && before == HealthState.DOWN) {
                alerts.raise(Event.Kind.SERVER_UP, server, dc, reason(health, server));
            }
        });
        linkMonitor.onChange(now -> link(now, dataCenter));
        this.peerWatch = Thread.ofVirtual()
                .name("alert-peers")
                .start(() -> watchPeers(sync, configDrift, dnssecProblems, peerPoll));
    }

    private static String reason(HealthMonitor health, String server) {
        return health.statuses().stream()
                .filter(s -> s.name().equals(server))
                .map(HealthMonitor.Status::reason)
                .findFirst()
                .orElse(null);
    }

    private void link(LinkState now, String dataCenter) {
        LinkState before = links.put(now.name(), now);
        HealthState was = before == null ? HealthState.UNKNOWN : before.state();
        if (now.state() == HealthState.DOWN && was != HealthState.DOWN) {
            alerts.raise(Event.Kind.LINK_DOWN, now.name(), dataCenter, now.reason());
        } else if (now.state() == HealthState.UP && was == HealthState.DOWN) {
            alerts.raise(Event.Kind.LINK_UP, now.name(), dataCenter, now.reason());
        }
        boolean wasOver = before != null && before.overLimit();
        if (now.overLimit() && !wasOver) {
            alerts.raise(Event.Kind.LINK_OVER_LIMIT, now.name(), dataCenter, now.overLimitReason());
        } else if (!now.overLimit() && wasOver) {
            alerts.raise(Event.Kind.LINK_UNDER_LIMIT, now.name(), dataCenter, "under its resume threshold");
        }
    }

    private void watchPeers(
            PeerSync sync,
            java.util.function.Supplier<String> configDrift,
            java.util.function.Supplier<Map<String, String>> dnssecProblems,
            Duration poll) {
        try {
            for (; ; ) {
                Thread.sleep(poll);
                for (PeerStatus s : sync.status()) {
                    String before = peers.put(s.name(), s.state());
                    boolean up = s.state().equals("connected");
                    boolean wasUp = "connected".equals(before);
                    if (up && !wasUp) {
                        alerts.raise(Event.Kind.PEER_CONNECTED, s.name(), s.dataCenter(), "over " + s.inUse());
                    } else if (!up && wasUp) {
                        alerts.raise(Event.Kind.PEER_LOST, s.name(), s.dataCenter(), "now " + s.state());
                    }
                }
                String now = configDrift.get();
                if (now != null && drift == null) {
                    alerts.raise(Event.Kind.CONFIG_OUT_OF_SYNC, "configuration", null, now);
                } else if (now == null && drift != null) {
                    alerts.raise(Event.Kind.CONFIG_IN_SYNC, "configuration", null, "every peer serves the same");
                }
                drift = now;
                dnssec(dnssecProblems.get());
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    /** A signed zone that stops being signed, or signatures that cannot be made, and when that ends. */
    private void dnssec(Map<String, String> now) {
        now.forEach((zone, why) -> {
            if (!dnssec.containsKey(zone)) {
                alerts.raise(Event.Kind.DNSSEC_FAILING, zone, null, why);
            }
        });
        dnssec.keySet().stream()
                .filter(zone -> !now.containsKey(zone))
                .toList()
                .forEach(zone -> alerts.raise(Event.Kind.DNSSEC_SIGNING, zone, null, "signed again"));
        dnssec.clear();
        dnssec.putAll(now);
    }

    @Override
    public void close() {
        peerWatch.interrupt();
    }
}
