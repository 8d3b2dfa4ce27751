package dev.gslb.server.maintenance;

import dev.gslb.api.RuntimeChanged;
import dev.gslb.api.RuntimeStatesView;
import dev.gslb.config.GslbConfig;
import dev.gslb.probe.store.StateFile;
import dev.gslb.site.AdminState;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.RuntimeStates;
import dev.gslb.site.RuntimeTarget;
import dev.gslb.site.SitePublisher;
import dev.gslb.sync.RuntimeStateExchange;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What operators disabled, drained or enabled at run time (docs/operator-guide.md "Take something
 * out of service"): the states of one generation, kept in the state folder, applied through the
 * {@link SitePublisher} and shared with the peers the way the sync group shares the configuration
 * (a generation per change, the newer wins, the greater instance name of two made at once; a peer's
 * states are validated first).
 */
public final class Maintenance implements RuntimeStateExchange {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);
    public static final String FILE = "runtime-states.json";
    /** A state file larger than this is not ours: set aside like a corrupt one. */
    private static final long MAX_FILE_BYTES = 4L << 20;

    /** One target's change, as the audit log records it. */
    public record Change(RuntimeTarget target, String before, String after) {}

    /** Hears every change: made here ({@code fromPeer} false, {@code by} the token's name) or taken from a peer. */
    public interface Listener {
        void changed(String by, boolean fromPeer, List<Change> changes);
    }

    /** The last enabled member of a pool (or pool of a wide IP) would go: asks for --force. */
    public static final class WouldEmpty extends RuntimeException {
        WouldEmpty(String message) {
            super(message);
        }
    }

    private final Path file;
    private final String instance;
    private final SitePublisher site;
    private final Supplier<GslbConfig> config;
    private final Clock clock;
    private volatile RuntimeStates states;
    private volatile Runnable tellPeers = () -> {};
    private volatile Listener listener = (by, fromPeer, changes) -> {};
    private volatile Resumer resumer = (server, at) -> {};
    /** Each peer's generation as it last offered it; bounded: a peer-sync group has a few peers. */
    private final java.util.Map<String, Long> peerGenerations = new java.util.concurrent.ConcurrentHashMap<>();

    private static final int MAX_PEERS_TRACKED = 64;

    public Maintenance(Path stateDir, String instance, SitePublisher site, Supplier<GslbConfig> config, Clock clock) {
        this.file = stateDir.resolve(FILE);
        this.instance = instance;
        this.site = site;
        this.config = config;
        this.clock = clock;
        this.states = load(file, clock);
        site.runtime(states);
    }

    /** Resumes a virtual server a peer's operator resumed at {@code at} (epoch millis), when it waits since before. */
    public interface Resumer {
        void resume(String server, long at);
    }

    /** A manual resume is told to the peers for this long: one that reconnects later has no wait from before it. */
    static final long RESUME_TOLD_MILLIS = 10 * 60_000;

    /**
     * {@code tell} sends the states to the peers; {@code listener} hears every change; {@code
     * resumer} applies a peer's manual resume here. Set before start.
     */
    public void attach(Runnable tell, Listener listener, Resumer resumer) {
        this.tellPeers = tell;
        this.listener = listener;
        this.resumer = resumer;
    }

    /**
     * The operator resumed {@code server} here (docs/operator-guide.md "Bring a server back after a
     * failure"): the peers resume it too, where it waits since before now. Kept as a state of kind
     * resume for a while, then dropped.
     */
    public synchronized void resumed(String server, String by) throws IOException {
        long now = clock.millis();
        RuntimeStates after = states.with(
                new RuntimeTarget(RuntimeTarget.Kind.RESUME, server),
                new RuntimeState(AdminState.ENABLED, by, now, "manual resume", now + RESUME_TOLD_MILLIS),
                instance,
                now);
        save(after);
        states = after;
        site.runtime(after);
        tellPeers.run();
    }

    /**
     * Gauges: how many targets are disabled and drained now (by kind), and the states' generation;
     * a pair whose generations differ for long has not agreed.
     */
    public void registerGauges(MeterRegistry registry) {
        for (AdminState s : List.of(AdminState.DISABLED, AdminState.DRAINED)) {
            for (RuntimeTarget.Kind k : RuntimeTarget.Kind.values()) {
                if (k == RuntimeTarget.Kind.RESUME) {
                    continue;
                }
                Gauge.builder("runtime_states", () -> count(k, s))
                        .tag("state", s.word())
                        .tag("kind", k.word())
                        .description("Targets an operator disabled or drained (gslb maintenance)")
                        .register(registry);
            }
        }
        Gauge.builder("runtime_states_generation", () -> states.generation())
                .description("Generation of the runtime states in force")
                .register(registry);
    }

    private long count(RuntimeTarget.Kind kind, AdminState state) {
        long now = clock.millis();
        return states.states().entrySet().stream()
                .filter(e -> e.getKey().kind() == kind
                        && e.getValue().state() == state
                        && e.getValue().liveAt(now))
                .count();
    }

    /** The states kept in {@code file}; a file that cannot be read is set aside and logged, and nothing is set. */
    static RuntimeStates load(Path file, Clock clock) {
        if (!Files.exists(file)) {
            return RuntimeStates.NONE;
        }
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("larger than " + MAX_FILE_BYTES + " bytes");
            }
            StateFile.requirePrivate(file);
            RuntimeStates r = RuntimeStatesCodec.decode(Files.readAllBytes(file));
            log.info(
                    "runtime states generation {} from {}: {} set",
                    r.generation(),
                    file,
                    r.states().size());
            return r;
        } catch (IOException | RuntimeException e) {
            Path aside = file.resolveSibling(file.getFileName() + ".corrupt-"
                    + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
                            .withZone(clock.getZone())
                            .format(clock.instant()));
            try {
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException moveFailed) {
                log.error("cannot set {} aside: {}", file, moveFailed.toString());
            }
            log.error(
                    "{} cannot be read ({}): set aside as {}; everything starts enabled", file, e.getMessage(), aside);
            return RuntimeStates.NONE;
        }
    }

    /** The states in force now, for the admin API. */
    public RuntimeStatesView view() {
        long now = clock.millis();
        RuntimeStates s = states;
        var live = new java.util.LinkedHashMap<RuntimeTarget, RuntimeState>();
        s.states().forEach((t, st) -> {
            if (st.liveAt(now) && t.kind() != RuntimeTarget.Kind.RESUME) {
                live.put(t, st);
            }
        });
        return RuntimeStatesCodec.view(new RuntimeStates(s.generation(), s.origin(), live));
    }

    public long generation() {
        return states.generation();
    }

    /** The generation here and as each peer last offered it (`gslb config status`). */
    public dev.gslb.api.ConfigStatus.Runtime generations() {
        RuntimeStates s = states;
        return new dev.gslb.api.ConfigStatus.Runtime(
                s.generation(), s.origin(), new java.util.TreeMap<>(peerGenerations));
    }

    /** The state of {@code t} in force now (enabled when none is). */
    private AdminState stateOf(RuntimeTarget t) {
        RuntimeState s = states.inForce(t, clock.millis());
        return s == null ? AdminState.ENABLED : s.state();
    }

    /**
     * Sets {@code t} to {@code to} here, as {@code by} said: the next generation, kept, applied and
     * sent to the peers.
     *
     * @param forAWhile the state ends by itself after this long, or null
     * @param force     even when a pool or wide IP would be left without an enabled member
     * @throws IllegalArgumentException when {@code t} names nothing in the configuration
     * @throws WouldEmpty               when it would empty a pool and {@code force} is false
     */
    /** The names of a kind in the configuration in service, sorted: what `gslb completion` offers. */
    public List<String> names(RuntimeTarget.Kind kind) {
        return new SiteNames(config.get()).of(kind);
    }

    public synchronized RuntimeChanged change(
            RuntimeTarget t, AdminState to, String by, String reason, Duration forAWhile, boolean force, long answers)
            throws IOException {
        Objects.requireNonNull(to);
        SiteNames names = new SiteNames(config.get());
        names.require(t);
        if (reason != null && reason.length() > RuntimeStatesCodec.MAX_REASON) {
            throw new IllegalArgumentException("a reason of at most " + RuntimeStatesCodec.MAX_REASON + " characters");
        }
        long now = clock.millis();
        AdminState before = stateOf(t);
        RuntimeState next = to == AdminState.ENABLED
                ? null
                : new RuntimeState(
                        to, by, now, reason, forAWhile == null || forAWhile.isZero() ? 0 : now + forAWhile.toMillis());
        String warning = null;
        if (next != null) {
            List<String> emptied = names.leftEmpty(states, t, next, now);
            if (!emptied.isEmpty()) {
                if (!force) {
                    throw new WouldEmpty(
                            String.join("; ", emptied) + ": pass --force to " + to.word() + " " + t + " anyway");
                }
                warning = "forced: " + String.join("; ", emptied);
            }
        }
        if (before == to && to == AdminState.ENABLED) {
            return new RuntimeChanged(
                    t.kind().word(), t.name(), before.word(), to.word(), answers, generation(), "already enabled");
        }
        RuntimeStates after = states.with(t, next, instance, now);
        save(after); // kept before it is in force: what is in force survives a restart
        states = after;
        site.runtime(after);
        tellPeers.run();
        log.info(
                "{} {} by {}{}: runtime states generation {}",
                to.word(),
                t,
                by,
                reason == null || reason.isEmpty() ? "" : " (" + reason + ")",
                states.generation());
        listener.changed(by, false, List.of(new Change(t, before.word(), to.word())));
        return new RuntimeChanged(
                t.kind().word(), t.name(), before.word(), to.word(), answers, states.generation(), warning);
    }

    @Override
    public RuntimeStateExchange.Offer current() {
        RuntimeStates s = states;
        return s.generation() == 0 ? null : new Offer(s.generation(), s.origin(), RuntimeStatesCodec.encode(s));
    }

    /** A peer's states: taken when newer and valid, kept, applied; an older or invalid offer changes nothing. */
    @Override
    public void received(String peer, Offer offer) {
        if (peerGenerations.containsKey(peer) || peerGenerations.size() < MAX_PEERS_TRACKED) {
            peerGenerations.put(peer, offer.generation());
        }
        RuntimeStates theirs;
        try {
            theirs = RuntimeStatesCodec.decode(offer.states());
            if (theirs.generation() != offer.generation() || !theirs.origin().equals(offer.origin())) {
                throw new IllegalArgumentException("the offer's generation or origin differs from its content's");
            }
        } catch (IllegalArgumentException e) {
            log.warn("runtime states from {} refused: {}", peer, e.getMessage());
            return;
        }
        List<Change> changes;
        synchronized (this) {
            RuntimeStates ours = states;
            if (!theirs.newerThan(ours)) {
                return;
            }
            states = theirs;
            changes = diff(ours, theirs, clock.millis());
            try {
                save(theirs);
            } catch (IOException e) {
                log.error("cannot keep runtime states in {}: {}", file, e.toString());
            }
            site.runtime(theirs);
        }
        long now = clock.millis();
        theirs.states().forEach((t, s) -> {
            if (t.kind() == RuntimeTarget.Kind.RESUME && s.liveAt(now)) {
                resumer.resume(t.name(), s.atMillis()); // one already applied finds nothing waiting since before
            }
        });
        log.info(
                "runtime states generation {} from {} (made on {}): {} set",
                theirs.generation(),
                peer,
                theirs.origin(),
                theirs.states().size());
        listener.changed(peer, true, changes);
    }

    private static List<Change> diff(RuntimeStates was, RuntimeStates is, long now) {
        Set<RuntimeTarget> targets = new HashSet<>(was.states().keySet());
        targets.addAll(is.states().keySet());
        List<Change> changes = new ArrayList<>();
        for (RuntimeTarget t : targets) {
            if (t.kind() == RuntimeTarget.Kind.RESUME) {
                continue; // applied by the health monitor, which logs it
            }
            String before = word(was.inForce(t, now));
            String after = word(is.inForce(t, now));
            if (!before.equals(after)) {
                changes.add(new Change(t, before, after));
            }
        }
        changes.sort(java.util.Comparator.comparing(c -> c.target().toString()));
        return changes;
    }

    private static String word(RuntimeState s) {
        return s == null ? AdminState.ENABLED.word() : s.state().word();
    }

    private void save(RuntimeStates s) throws IOException {
        StateFile.writePrivate(file, RuntimeStatesCodec.encode(s));
    }
}
