package dev.gslb.server;

import dev.gslb.server.metrics.Exposition;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Each virtual server as this instance answers by it, from the published site state: its merged
 * health (this instance's monitors, else a peer's fresh view), whether it takes new answers, and
 * its load as measured in its data center (each metric only while known: unknown is no series).
 * The servers are the configuration's, so the series follow a reload.
 */
final class ServerGauges {
    private ServerGauges() {}

    static void register(SitePublisher site, Exposition exposition) {
        var registry = exposition.registry();
        MultiGauge state = MultiGauge.builder("server_state")
                .description("Virtual-server health as answered by (this instance's monitors, else a peer's):"
                        + " 1 up, 0 down, -1 unknown")
                .register(registry);
        MultiGauge answerable = MultiGauge.builder("server_answerable")
                .description("1 while the virtual server takes new answers (available, enabled, its link not over"
                        + " its limit), else 0")
                .register(registry);
        Map<String, ToDoubleFunction<ServerLoad>> measured = loadGauges();
        Map<String, MultiGauge> loads = new LinkedHashMap<>();
        measured.forEach((name, read) -> loads.put(
                name,
                MultiGauge.builder(name)
                        .description(LOAD_DESCRIPTIONS.get(name)
                                + ", as measured in its data center (a series only while known)")
                        .register(registry)));
        exposition.beforeScrape(() -> {
            SiteState now = site.state();
            List<MultiGauge.Row<?>> states = new ArrayList<>();
            List<MultiGauge.Row<?>> answering = new ArrayList<>();
            Map<String, List<MultiGauge.Row<?>>> loadRows = new LinkedHashMap<>();
            measured.keySet().forEach(name -> loadRows.put(name, new ArrayList<>()));
            for (VirtualServer vs : now.site().servers()) {
                Tags tags = Tags.of(
                        "server", vs.name(), "datacenter", vs.dataCenter().name());
                ServerState s = now.at(vs);
                ServerLoad load = s.load();
                measured.forEach((name, read) -> {
                    double v = read.applyAsDouble(load);
                    if (v >= 0 && load.measuredAt() > 0) { // unknown is no series, never a zero
                        loadRows.get(name).add(MultiGauge.Row.of(tags, v));
                    }
                });
                states.add(MultiGauge.Row.of(
                        tags,
                        switch (s.health()) {
                            case UP -> 1;
                            case DOWN -> 0;
                            case UNKNOWN -> -1;
                        }));
                answering.add(MultiGauge.Row.of(tags, s.answerable() ? 1 : 0));
            }
            state.register(states, true);
            answerable.register(answering, true);
            loads.forEach((name, gauge) -> gauge.register(loadRows.get(name), true));
        });
    }

    private static final Map<String, String> LOAD_DESCRIPTIONS = Map.of(
            "server_connections", "Current connections of the virtual server",
            "server_cpu_percent", "CPU in use behind the virtual server, percent",
            "server_memory_percent", "Memory in use behind the virtual server, percent",
            "server_load_average", "One-minute load average behind the virtual server",
            "server_bytes_per_second", "Traffic through the virtual server, both directions, bytes per second",
            "server_packets_per_second", "Packets through the virtual server, both directions, per second",
            "server_servers_up", "Servers up behind the virtual server",
            "server_over_limit", "1 while the virtual server is over one of its limits (set aside), else 0");

    /** Each load gauge and how it reads a server's load (-1: unknown). */
    private static Map<String, ToDoubleFunction<ServerLoad>> loadGauges() {
        Map<String, ToDoubleFunction<ServerLoad>> m = new LinkedHashMap<>();
        m.put("server_connections", ServerLoad::connections);
        m.put("server_cpu_percent", ServerLoad::cpuPercent);
        m.put("server_memory_percent", ServerLoad::memoryPercent);
        m.put("server_load_average", ServerLoad::loadAverage);
        m.put("server_bytes_per_second", ServerLoad::bytesPerSecond);
        m.put("server_packets_per_second", ServerLoad::packetsPerSecond);
        m.put("server_servers_up", ServerLoad::serversUp);
        m.put("server_over_limit", l -> l.overLimit() ? 1 : 0);
        return m;
    }
}
