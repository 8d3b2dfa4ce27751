package dev.gslb.server;

import dev.gslb.api.ConfigStatus;
import dev.gslb.api.PeerStatus;
import dev.gslb.server.metrics.Exposition;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.Supplier;

/**
 * The pair's gauges: each peer up or down, and whether the configuration is in sync, read from
 * the same status {@code gslb peer list} and {@code gslb config status} show.
 */
final class SyncGauges {
    private SyncGauges() {}

    static void register(Supplier<List<PeerStatus>> peers, Supplier<ConfigStatus> config, Exposition exposition) {
        var registry = exposition.registry();
        MultiGauge up = MultiGauge.builder("peer_up")
                .description(
                        "1 while the peer's sync connection is up, 0 while it is connecting or down (gslb peer list)")
                .register(registry);
        exposition.beforeScrape(() -> up.register(
                peers.get().stream()
                        .map(p -> MultiGauge.Row.of(
                                Tags.of("peer", p.name(), "datacenter", p.dataCenter() == null ? "" : p.dataCenter()),
                                "connected".equals(p.state()) ? 1 : 0))
                        .toList(),
                true)); // a removed peer's series goes
        Gauge.builder("config_in_sync", () -> config.get().inSync() ? 1 : 0)
                .description(
                        "1 while every paired peer serves this instance's configuration, else 0 (gslb config status)")
                .register(registry);
        Gauge.builder("config_generation", () -> config.get().generation())
                .description("Generation of the shared configuration this instance serves (gslb config status)")
                .register(registry);
    }
}
