package dev.gslb.server;

import dev.gslb.server.metrics.Exposition;
import dev.gslb.site.ServerState;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;

/**
 * Each virtual server as this instance answers by it, from the published site state: its merged
 * health (this instance's monitors, else a peer's fresh view) and whether it takes new answers.
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
        exposition.beforeScrape(() -> {
            SiteState now = site.state();
            List<MultiGauge.Row<?>> states = new ArrayList<>();
            List<MultiGauge.Row<?>> answering = new ArrayList<>();
            for (VirtualServer vs : now.site().servers()) {
                Tags tags = Tags.of(
                        "server", vs.name(), "datacenter", vs.dataCenter().name());
                ServerState s = now.at(vs);
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
        });
    }
}
