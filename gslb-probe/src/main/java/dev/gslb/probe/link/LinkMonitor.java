package dev.gslb.probe.link;

import dev.gslb.probe.health.HealthMonitor;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Measures the links of this instance's data center (the one writer of them): polls each link's
 * traffic source on its own virtual thread, checks its gateways with the configured monitors
 * (same hysteresis as server monitors), and publishes a {@link LinkState} after every poll and
 * every gateway change. A link is UP while any gateway is up, DOWN when all are down.
 */
public final class LinkMonitor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LinkMonitor.class);

    private final Map<String, LinkSpec> specs = new LinkedHashMap<>();
    private final List<LinkSpec> local = new ArrayList<>();
    private final String instance;
    private final Clock clock;
    private final MeterRegistry registry;
    private final HealthMonitor gateways;
    private final Map<String, TrafficMeter> meters = new ConcurrentHashMap<>();
    private final Map<String, String> trafficErrors = new ConcurrentHashMap<>();
    private final Map<String, LinkState> states = new ConcurrentHashMap<>();
    private final List<Consumer<LinkState>> listeners = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    public LinkMonitor(List<LinkSpec> links, String dataCenter, String instance, Clock clock, MeterRegistry registry) {
        this.instance = instance;
        this.clock = clock;
        this.registry = registry;
        List<HealthTarget> targets = new ArrayList<>();
        for (LinkSpec l : links) {
            specs.put(l.name(), l);
            if (l.dataCenter().equals(dataCenter)) {
                local.add(l);
                states.put(l.name(), LinkState.unknown(l.name()));
                if (l.traffic() != null) {
                    meters.put(l.name(), new TrafficMeter(l.traffic().samples()));
                }
                for (InetAddress g : l.gateways()) {
                    targets.add(new HealthTarget(gatewayTarget(l, g), g, l.dataCenter(), l.monitors()));
                }
            }
        }
        this.gateways = new HealthMonitor(targets, clock, registry);
        gateways.onChange((target, state) -> {
            for (LinkSpec l : local) {
                if (target.startsWith("link " + l.name() + " ")) {
                    publish(l);
                }
            }
        });
    }

    private static String gatewayTarget(LinkSpec l, InetAddress gateway) {
        return "link " + l.name() + " gateway " + gateway.getHostAddress();
    }

    /** Called with every new state of a local link (peer sync sends it on). */
    public void onChange(Consumer<LinkState> listener) {
        listeners.add(listener);
    }

    public void start() {
        gateways.start();
        for (LinkSpec l : local) {
            if (l.traffic() != null) {
                threads.add(Thread.ofVirtual().name("link-" + l.name()).start(() -> poll(l)));
            }
        }
    }

    private void poll(LinkSpec l) {
        TrafficSpec t = l.traffic();
        TrafficMeter meter = meters.get(l.name());
        try {
            for (; ; ) {
                long started = System.nanoTime();
                try {
                    meter.read(t.source().read(t.interval().dividedBy(2)), clock.millis());
                    if (trafficErrors.remove(l.name()) != null) {
                        log.info(
                                "link {}: traffic readable again from {}",
                                l.name(),
                                t.source().describe());
                    }
                } catch (IOException | RuntimeException e) {
                    meter.failed();
                    String was = trafficErrors.put(l.name(), String.valueOf(e.getMessage()));
                    if (was == null) {
                        log.warn("link {}: traffic unknown: {}", l.name(), e.getMessage());
                    }
                }
                publish(l);
                long left = t.interval().toNanos() - (System.nanoTime() - started);
                if (left > 0) {
                    Thread.sleep(Duration.ofNanos(left));
                }
            }
        } catch (InterruptedException e) {
            // stopping
        } finally {
            t.source().close();
        }
    }

    private synchronized void publish(LinkSpec l) {
        LinkState before = states.get(l.name());
        TrafficMeter meter = meters.get(l.name());
        long in = meter == null ? -1 : meter.inBps();
        long out = meter == null ? -1 : meter.outBps();
        boolean over = l.overLimit(in, out, before.overLimit());
        HealthState state = gatewayState(l);
        String error = trafficErrors.get(l.name());
        LinkState now = new LinkState(
                l.name(),
                state,
                in,
                out,
                over ? l.overLimitReason(in, out) : null,
                clock.millis(),
                instance,
                error != null ? "traffic unknown: " + error : gatewayReason(l, state));
        states.put(l.name(), now);
        if (now.state() != before.state()) {
            log.atLevel(now.state() == HealthState.DOWN ? Level.WARN : Level.INFO)
                    .log("link {} is {} (was {}): {}", l.name(), now.state(), before.state(), now.reason());
            count("state", now.state().name());
        }
        if (now.overLimit() != before.overLimit()) {
            if (over) {
                log.warn("{}; its servers get no new answers", now.overLimitReason());
            } else {
                log.info("link {} is back under its resume threshold; its servers are answered again", l.name());
            }
            count("limit", over ? "over" : "under");
        }
        listeners.forEach(c -> c.accept(now));
    }

    private void count(String kind, String to) {
        Counter.builder("link_changes")
                .tag("kind", kind)
                .tag("to", to.toLowerCase(java.util.Locale.ROOT))
                .description("Link state and limit changes measured here")
                .register(registry)
                .increment();
    }

    private HealthState gatewayState(LinkSpec l) {
        boolean anyUp = false;
        boolean allDown = !l.gateways().isEmpty();
        for (InetAddress g : l.gateways()) {
            HealthState s = gateways.state(gatewayTarget(l, g));
            anyUp |= s == HealthState.UP;
            allDown &= s == HealthState.DOWN;
        }
        return anyUp ? HealthState.UP : allDown ? HealthState.DOWN : HealthState.UNKNOWN;
    }

    private String gatewayReason(LinkSpec l, HealthState state) {
        if (l.gateways().isEmpty()) {
            return "no gateways to check";
        }
        for (HealthMonitor.Status s : gateways.statuses()) {
            if (s.name().startsWith("link " + l.name() + " ") && s.state() == state) {
                return "gateway " + s.address() + ": " + s.reason();
            }
        }
        return "gateways not checked yet";
    }

    /** Every configured link, local or not. */
    public List<LinkSpec> specs() {
        return List.copyOf(specs.values());
    }

    public LinkSpec spec(String name) {
        return specs.get(name);
    }

    /** This instance's measurement of a link of its own data center; null for another data center's. */
    public LinkState local(String name) {
        return states.get(name);
    }

    /** The source a local link's traffic is read from, for `gslb link list`. */
    public static String source(LinkSpec l) {
        return l.traffic() == null ? "-" : l.traffic().source().describe();
    }

    @Override
    public void close() {
        gateways.close();
        threads.forEach(Thread::interrupt);
    }
}
