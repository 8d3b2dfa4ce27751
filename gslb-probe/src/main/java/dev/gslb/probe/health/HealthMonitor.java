package dev.gslb.probe.health;

import dev.gslb.site.HealthState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Runs every monitor of every virtual server on its own virtual thread and keeps the states.
 * A server is DOWN when any of its monitors is down, UP when all are up, UNKNOWN otherwise (and
 * always UNKNOWN without monitors). Each change is logged once and counted.
 *
 * <p>A server a {@code manual-resume} monitor took from UP to DOWN waits for the operator
 * ({@link ManualResume}): it stays DOWN, to the answers and to the peers alike, until {@link
 * #resume}. Its monitors run on; resuming brings it UP at once when they pass again (their {@code
 * up} successes in a row), else when they do.
 */
public final class HealthMonitor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HealthMonitor.class);

    /**
     * What `gslb health` shows for one virtual server.
     *
     * @param switchOverSeconds the longest time from its failure until answers change (slowest
     *     monitor's interval x down threshold + answer TTL), or null where the TTL is not known here
     * @param waiting           its wait for the operator's resume, or null when it is not waiting
     * @param checked           where its monitors check it when not at its address (its translation,
     *     "10.0.0.10:8080"), or null
     */
    public record Status(
            String name,
            String address,
            String checked,
            String dataCenter,
            HealthState state,
            String lastCheck,
            String reason,
            List<MonitorStatus> monitors,
            Long switchOverSeconds,
            ManualResume.Waiting waiting) {
        public Status withSwitchOver(Duration d) {
            return new Status(
                    name, address, checked, dataCenter, state, lastCheck, reason, monitors, d.toSeconds(), waiting);
        }
    }

    public record MonitorStatus(
            String monitor, HealthState state, int successes, int failures, String lastCheck, String reason) {}

    /** Copy-on-write in configuration order: readers (sync, admin) never see it change under them. */
    private volatile Map<String, HealthTarget> targets = Map.of();

    private final Map<String, List<MonitorTracker>> trackers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, HealthState> states = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, List<Thread>> threads = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Gauge> gauges = new java.util.concurrent.ConcurrentHashMap<>();
    private final Clock clock;
    private final MeterRegistry registry;
    private final List<java.util.function.BiConsumer<String, HealthState>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ManualResume waiting;
    private final List<java.util.function.BiConsumer<String, Boolean>> waitingListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private boolean started;

    /** Called on every state change of a virtual server (peer sync shares this view). */
    public void onChange(java.util.function.BiConsumer<String, HealthState> listener) {
        listeners.add(listener);
    }

    /** Called when a virtual server starts (true) or ends (false) waiting for the operator's resume. */
    public void onWaitingChange(java.util.function.BiConsumer<String, Boolean> listener) {
        waitingListeners.add(listener);
    }

    public java.util.Set<String> targets() {
        return targets.keySet();
    }

    /** Monitors whose waits for resume, if any, last until this process ends. */
    public HealthMonitor(List<HealthTarget> targets, Clock clock, MeterRegistry registry) {
        this(targets, clock, registry, ManualResume.inMemory());
    }

    /** Monitors that start with the waits of {@code waiting} that these targets still allow. */
    public HealthMonitor(List<HealthTarget> targets, Clock clock, MeterRegistry registry, ManualResume waiting) {
        this.clock = clock;
        this.registry = registry;
        this.waiting = waiting;
        dropWaitsNotAllowedBy(targets);
        targets.forEach(this::add);
    }

    /**
     * Ends the waits {@code next} no longer allows: of a server it does not have, or whose
     * monitor that took it DOWN is gone or no longer has {@code manual-resume}.
     */
    private void dropWaitsNotAllowedBy(List<HealthTarget> next) {
        Map<String, HealthTarget> byName = new LinkedHashMap<>();
        next.forEach(t -> byName.put(t.name(), t));
        for (String server : waiting.keepOnly((server, monitor) -> byName.containsKey(server)
                && byName.get(server).monitors().stream()
                        .anyMatch(m -> m.name().equals(monitor) && m.manualResume()))) {
            log.info("virtual server {} no longer waits for resume: its configuration no longer asks for it", server);
            waitingListeners.forEach(l -> l.accept(server, false));
        }
    }

    private void add(HealthTarget t) {
        Map<String, HealthTarget> copy = new LinkedHashMap<>(targets);
        copy.put(t.name(), t);
        targets = java.util.Collections.unmodifiableMap(copy);
        List<MonitorTracker> list = new ArrayList<>();
        t.monitors().forEach(m -> list.add(new MonitorTracker(m)));
        trackers.put(t.name(), list);
        // a server waiting for resume is DOWN from its start: its checks starting again resume nothing
        states.put(t.name(), waiting.waiting(t.name()) != null ? HealthState.DOWN : HealthState.UNKNOWN);
        gauges.put(
                t.name(),
                Gauge.builder("health_state", () -> switch (states.getOrDefault(t.name(), HealthState.UNKNOWN)) {
                            case UP -> 1;
                            case DOWN -> 0;
                            case UNKNOWN -> -1;
                        })
                        .description("Virtual-server state by this instance's own monitors: 1 up, 0 down, -1 unknown")
                        .tag("server", t.name())
                        .tag("datacenter", t.dataCenter())
                        .register(registry));
    }

    public synchronized void start() {
        started = true;
        targets.keySet().forEach(this::startChecks);
    }

    private void startChecks(String name) {
        List<Thread> list = new ArrayList<>();
        for (MonitorTracker tr : trackers.get(name)) {
            list.add(Thread.ofVirtual()
                    .name("monitor-" + name + "-" + tr.spec.name())
                    .start(() -> loop(name, tr)));
        }
        threads.put(name, list);
    }

    private void remove(String name) {
        List<Thread> running = threads.remove(name);
        if (running != null) {
            running.forEach(Thread::interrupt);
        }
        Map<String, HealthTarget> copy = new LinkedHashMap<>(targets);
        copy.remove(name);
        targets = java.util.Collections.unmodifiableMap(copy);
        trackers.remove(name);
        states.remove(name);
        Gauge g = gauges.remove(name);
        if (g != null) {
            registry.remove(g);
        }
    }

    /**
     * Applies a reloaded configuration's servers: a server whose address, data center, monitors and
     * translation are unchanged keeps its checks and state; a changed one starts again from UNKNOWN; a removed
     * one stops. Returns how many servers changed, were added or removed.
     */
    public synchronized int reconfigure(List<HealthTarget> next) {
        Map<String, HealthTarget> wanted = new LinkedHashMap<>();
        next.forEach(t -> wanted.put(t.name(), t));
        java.util.Set<String> names = new java.util.HashSet<>(targets.keySet());
        names.addAll(wanted.keySet());
        int changed = (int) names.stream()
                .filter(n -> !java.util.Objects.equals(targets.get(n), wanted.get(n)))
                .count();
        dropWaitsNotAllowedBy(next);
        for (String name : List.copyOf(targets.keySet())) {
            if (!targets.get(name).equals(wanted.get(name))) {
                remove(name);
            }
        }
        for (HealthTarget t : next) {
            if (!targets.containsKey(t.name())) {
                add(t);
                if (started) {
                    startChecks(t.name());
                }
            }
        }
        return changed;
    }

    private void loop(String name, MonitorTracker tr) {
        HealthTarget target = targets.get(name);
        if (target == null) {
            return; // removed by a reload before it started
        }
        Duration interval = tr.spec.interval();
        Check check = target.check(tr.spec);
        InetAddress address = target.checkedAddress();
        try {
            for (; ; ) {
                long started = System.nanoTime();
                CheckResult r = check.run(address, tr.spec.timeout());
                if (r != null) {
                    record(name, tr, r);
                }
                long left = interval.toNanos() - (System.nanoTime() - started);
                if (left > 0) {
                    Thread.sleep(Duration.ofNanos(left));
                }
            }
        } catch (InterruptedException e) {
            // stopping
        }
    }

    private synchronized void record(String name, MonitorTracker tr, CheckResult r) {
        List<MonitorTracker> list = trackers.get(name);
        if (list == null || !list.contains(tr)) {
            return; // a result of checks a reload replaced
        }
        HealthState was = tr.state;
        if (!tr.apply(r, clock.millis())) {
            return;
        }
        if (tr.spec.manualResume()
                && was == HealthState.UP
                && tr.state == HealthState.DOWN
                && waiting.hold(name, tr.spec.name(), instantNow())) {
            log.warn(
                    "virtual server {} waits for resume: {} took it DOWN (gslb resume vs {})",
                    name,
                    tr.spec.name(),
                    name);
            waitingListeners.forEach(l -> l.accept(name, true));
        }
        publish(name, tr.spec.name() + " " + r.reason());
    }

    /**
     * Sets the state of {@code name} from its monitors, DOWN while it waits for resume; logs
     * ({@code cause}), counts and tells the listeners of a change.
     */
    private void publish(String name, String cause) {
        HealthState before = states.get(name);
        HealthState now = combine(trackers.get(name));
        if (waiting.monitorsPass(name, now == HealthState.UP, instantNow())) {
            log.info(
                    "virtual server {} passes its monitors again and waits for resume (gslb resume vs {})", name, name);
        }
        if (waiting.waiting(name) != null) {
            now = HealthState.DOWN;
        }
        if (now == before) {
            return;
        }
        // counted before it is visible: whoever sees the new state finds it counted
        Counter.builder("health_state_changes")
                .tag("server", name)
                .tag("to", now.name().toLowerCase(java.util.Locale.ROOT))
                .description("Virtual-server state changes")
                .register(registry)
                .increment();
        states.put(name, now);
        HealthTarget t = targets.get(name);
        log.atLevel(now == HealthState.DOWN ? Level.WARN : Level.INFO)
                .log(
                        "virtual server {} ({}{} in {}) is {} (was {}): {}",
                        name,
                        t.address().getHostAddress(),
                        t.checked() == null ? "" : ", checked at " + t.checked(),
                        t.dataCenter(),
                        now,
                        before,
                        cause);
        HealthState state = now;
        listeners.forEach(l -> l.accept(name, state));
    }

    /**
     * The operator resumes {@code name}: UP at once when its monitors pass again, else as soon as
     * they do. False when it was not waiting (or is not configured).
     */
    public synchronized boolean resume(String name) {
        if (!targets.containsKey(name) || !waiting.resume(name)) {
            return false;
        }
        log.info("virtual server {} resumed by the operator", name);
        waitingListeners.forEach(l -> l.accept(name, false));
        publish(name, "resumed by the operator");
        return true;
    }

    /**
     * A peer's operator resumed {@code name} at {@code at}: resumed here too when it waits since
     * before then (a wait that began later is a new failure, which that resume did not look at).
     */
    public synchronized boolean resumeIfWaitingSince(String name, java.time.Instant at) {
        ManualResume.Waiting w = waiting.waiting(name);
        return w != null && w.since().isBefore(at) && resume(name);
    }

    /** Now to the millisecond, as every time `gslb health` shows. */
    private java.time.Instant instantNow() {
        return java.time.Instant.ofEpochMilli(clock.millis());
    }

    /** The servers waiting for the operator's resume now. */
    public java.util.Set<String> waitingForResume() {
        return waiting.servers();
    }

    private static HealthState combine(List<MonitorTracker> list) {
        if (list.isEmpty()) {
            return HealthState.UNKNOWN;
        }
        boolean allUp = true;
        for (MonitorTracker t : list) {
            if (t.state == HealthState.DOWN) {
                return HealthState.DOWN;
            }
            allUp &= t.state == HealthState.UP;
        }
        return allUp ? HealthState.UP : HealthState.UNKNOWN;
    }

    /**
     * The state of one virtual server; lock-free. A wait is DOWN by definition, even in the instant
     * between the wait and the state it publishes.
     */
    public HealthState state(String name) {
        return waiting.waiting(name) != null ? HealthState.DOWN : states.getOrDefault(name, HealthState.UNKNOWN);
    }

    public List<Status> statuses() {
        List<Status> out = new ArrayList<>();
        targets.forEach((name, t) -> {
            List<MonitorTracker> trs = trackers.get(name);
            if (trs == null) {
                return; // removed by a reload meanwhile
            }
            List<MonitorStatus> ms = new ArrayList<>();
            long last = 0;
            String reason = t.monitors().isEmpty() ? "no monitors" : "not checked yet";
            for (MonitorTracker tr : trs) {
                ms.add(new MonitorStatus(
                        tr.spec.name(), tr.state, tr.successes, tr.failures, instant(tr.lastCheck), tr.reason));
                if (tr.lastCheck >= last) {
                    last = tr.lastCheck;
                    reason = tr.reason;
                }
            }
            ManualResume.Waiting w = waiting.waiting(name); // read once: its state and its wait agree
            out.add(new Status(
                    name,
                    t.address().getHostAddress(),
                    t.checked(),
                    t.dataCenter(),
                    w != null ? HealthState.DOWN : state(name),
                    instant(last),
                    reason,
                    ms,
                    null,
                    w));
        });
        return out;
    }

    /** Interval x down threshold of the slowest monitor of {@code name}, plus {@code ttl}. */
    public Duration switchOver(String name, Duration ttl) {
        Duration worst = Duration.ZERO;
        HealthTarget t = targets.get(name);
        for (MonitorSpec m : t == null ? List.<MonitorSpec>of() : t.monitors()) {
            Duration d = m.interval().multipliedBy(m.downThreshold());
            worst = d.compareTo(worst) > 0 ? d : worst;
        }
        return worst.plus(ttl);
    }

    private static String instant(long millis) {
        return millis == 0 ? null : java.time.Instant.ofEpochMilli(millis).toString();
    }

    @Override
    public void close() {
        threads.values().forEach(list -> list.forEach(Thread::interrupt));
    }
}
