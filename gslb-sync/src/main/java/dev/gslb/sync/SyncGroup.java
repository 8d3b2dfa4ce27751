package dev.gslb.sync;

import dev.gslb.api.ConfigStatus;
import dev.gslb.api.PeerStatus;
import dev.gslb.probe.store.StateFile;
import dev.gslb.settings.SettingsException;
import dev.gslb.topology.load.RuntimeLoad;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared configuration of a sync group, as F5's sync group keeps it (docs/operator-guide.md
 * "One configuration for the pair (sync group)"): which generation this instance serves, where that
 * change was made, and what its peers serve. A change made here (a reload of a changed file) gets
 * the next generation and goes to every peer; a newer generation from a peer is validated and
 * applied here exactly as a reload would be, or refused and the peer told why. Whatever this
 * instance serves is kept in its state folder ({@code config/}), so a restart serves the newest
 * configuration it has seen rather than an older file; a file changed while the server was down is
 * a change made here.
 *
 * <p>A file nobody changed while paired is generation 0 and never replaces a peer's: two
 * instances set up by hand keep serving their own files (shown as out of sync when they differ)
 * until the first change on either.
 */
public final class SyncGroup<C> implements ConfigExchange {
    private static final Logger log = LoggerFactory.getLogger(SyncGroup.class);
    /** A peer that serves another configuration this long (not passing through) is out of sync. */
    static final long SETTLE_MILLIS = 10_000;

    /** Applies a validated configuration to the running server, all of it or nothing. */
    @FunctionalInterface
    public interface Applier<C> {
        void apply(C next, List<RuntimeLoad> loads) throws SettingsException;
    }

    /**
     * The last that was heard of a peer's configuration; its content (of {@code contentDigest})
     * only when that is what it serves, else null.
     */
    record PeerConfig(Offer offer, SharedContent content, String contentDigest, long heardAt, long differsSince) {}

    private final GroupConfiguration<C> configs;
    private final ConfigFolder folder;
    private final String instance;
    private final Path dir;
    private final boolean syncOn;
    private final Clock clock;
    private final Map<String, PeerConfig> peers = new ConcurrentHashMap<>();
    /** What was logged once already (a refusal, a kept concurrent change); at most {@value #MAX_LOGGED}. */
    final Set<String> logged = ConcurrentHashMap.newKeySet();

    static final int MAX_LOGGED = 1000;
    private volatile Applier<C> applier;
    private volatile Runnable publish = () -> {};
    private volatile Runnable tell = () -> {};

    private C running;
    private volatile SharedContent shared;
    private volatile ConfigVersion version;
    /**
     * The shared content zipped for the peers, made at the first offer after it changes: a start
     * does not wait for it (it zips the topology's lists, a few tens of milliseconds of cold code).
     */
    private volatile Zipped zipped;

    private record Zipped(SharedContent content, byte[] bytes) {}

    private String fileDigest;
    /**
     * Where the running configuration's shared files are read from (a peer's, or one kept at
     * start), null while they are the file's own: kept while served, though a run-time topology
     * load gives the content another digest and so another folder.
     */
    private Path filesAt;

    private volatile ConfigVersion refused;
    private volatile String refusal = "";

    /**
     * Decides what to serve at start: {@code fromFile}, or the configuration persisted in {@code
     * dir} when the file has not changed since this instance last read it.
     */
    public SyncGroup(GroupConfiguration<C> configs, C fromFile, Path dir, Clock clock) throws SettingsException {
        this.configs = configs;
        this.folder = new ConfigFolder(dir, configs);
        this.instance = configs.instance(fromFile);
        this.dir = dir;
        this.syncOn = configs.syncOn(fromFile);
        this.clock = clock;
        SharedContent file = configs.shared(fromFile);
        ConfigFolder.Persisted p = folder.readPersisted();
        C start = fromFile;
        SharedContent startShared = file;
        ConfigVersion v = new ConfigVersion(0, instance, file.digest());
        if (p != null && p.fileDigest().equals(file.digest())) {
            v = new ConfigVersion(p.generation(), p.origin(), p.digest());
            if (!p.digest().equals(file.digest())) {
                try {
                    Path at = folder.sharedDir(p.digest());
                    SharedContent kept = configs.readFrom(at);
                    if (!kept.digest().equals(p.digest())) {
                        throw new IOException("its files do not match its digest");
                    }
                    start = configs.over(kept, at, fromFile, "configuration generation " + v);
                    startShared = kept;
                    filesAt = at;
                    log.info(
                            "serving configuration generation {} kept in {} (newer than {})",
                            v,
                            dir,
                            configs.label(fromFile));
                } catch (IOException | SettingsException e) {
                    log.warn(
                            "the configuration kept in {} cannot be served ({}); serving {}",
                            dir,
                            e.getMessage(),
                            configs.label(fromFile));
                    v = new ConfigVersion(p.generation() + 1, instance, file.digest());
                }
            }
        } else if (p != null) {
            try { // what was loaded at run time stays, as it does across a reload
                startShared = file.withLoadsOf(configs.readFrom(folder.sharedDir(p.digest())));
            } catch (IOException e) {
                log.debug("no run-time topology loads kept: {}", e.toString());
            }
            v = new ConfigVersion(p.generation() + 1, instance, startShared.digest());
            log.info("{} changed while the server was stopped: it is generation {}", configs.label(fromFile), v);
        }
        this.running = start;
        this.shared = startShared;
        this.version = v;
        this.fileDigest = file.digest();
        folder.persist(startShared, version, fileDigest, filesAt);
    }

    /** The configuration to build the server from. */
    public synchronized C running() {
        return running;
    }

    /** Wires the running server and peer sync in: set before peers connect. */
    public void attach(Applier<C> applier, Runnable publish, Runnable tell) {
        this.applier = applier;
        this.publish = publish;
        this.tell = tell;
    }

    public ConfigVersion version() {
        return version;
    }

    /**
     * The file was read again ({@code gslb config reload}, SIGHUP): when its shared part changed
     * since this instance last read it, that is a change made here: applied, the next
     * generation, sent to the peers. Otherwise only the local part is taken and the shared
     * configuration in service stays (it may be a peer's, newer than this file).
     */
    public synchronized ConfigVersion reloaded(C fromFile) throws SettingsException {
        SharedContent file = configs.shared(fromFile);
        if (file.digest().equals(fileDigest)) {
            C next = configs.withShared(fromFile, running);
            applier.apply(next, shared.loads());
            running = next;
            return version;
        }
        SharedContent content = file.withLoadsOf(shared);
        applier.apply(fromFile, content.loads());
        ConfigVersion next = new ConfigVersion(version.generation() + 1, instance, content.digest());
        log.info("configuration changed here: generation {}", next);
        fileDigest = file.digest();
        filesAt = null;
        serve(fromFile, content, next);
        if (syncOn) {
            publish.run();
        }
        return next;
    }

    /**
     * A topology load, import, unload or revert changed the run-time loads here to {@code loads}:
     * the next generation, sent to the peers; the change itself is in service already.
     */
    public synchronized ConfigVersion topologyLoaded(List<RuntimeLoad> loads) {
        SharedContent content = shared.withLoads(loads);
        if (content.digest().equals(version.digest())) {
            return version;
        }
        ConfigVersion next = new ConfigVersion(version.generation() + 1, instance, content.digest());
        log.info("run-time topology loads changed here: configuration generation {}", next);
        serve(running, content, next);
        if (syncOn) {
            publish.run();
        }
        return next;
    }

    /** What was loaded at run time, for the server's start. */
    public synchronized List<RuntimeLoad> loads() {
        return shared.loads();
    }

    private void serve(C config, SharedContent content, ConfigVersion v) {
        running = config;
        shared = content;
        version = v;
        refused = null;
        refusal = "";
        folder.persist(content, version, fileDigest, filesAt);
    }

    @Override
    public Offer current() {
        return new Offer(version, syncOn, refused, refusal, zipped());
    }

    @Override
    public Offer state() {
        return new Offer(version, syncOn, refused, refusal, new byte[0]);
    }

    private byte[] zipped() {
        SharedContent content = shared;
        Zipped z = zipped;
        if (z == null || z.content() != content) {
            z = new Zipped(content, content.zip());
            zipped = z;
        }
        return z.bytes();
    }

    @Override
    public void received(String peer, Offer offer) {
        long now = clock.millis();
        PeerConfig before = peers.get(peer);
        SharedContent content = before == null ? null : before.content();
        String contentDigest = before == null ? null : before.contentDigest();
        String theirs = offer.version().digest();
        if (offer.bundle().length > 0) {
            try {
                content = configs.unzip(offer.bundle());
                contentDigest = content.digest();
            } catch (IOException e) {
                log.warn("peer {} sent a configuration that cannot be read: {}", peer, e.getMessage());
                return;
            }
        } else if (!theirs.equals(contentDigest)) {
            // Only its state was told, and the content it sent before is not what it serves now: a
            // peer that took this instance's change says so with its state only, and serves this
            // instance's content; any other content comes with its next change or reconnection.
            Served<C> here = served();
            boolean ours = theirs.equals(here.version().digest());
            content = ours ? here.content() : null;
            contentDigest = ours ? theirs : null;
        }
        boolean differs = !theirs.equals(version.digest());
        long since = !differs ? 0 : before != null && before.differsSince() > 0 ? before.differsSince() : now;
        peers.put(peer, new PeerConfig(offer, content, contentDigest, now, since));
        if (offer.refused() != null && offer.refused().equals(version) && once("refused " + peer + version)) {
            log.warn(
                    "peer {} refused configuration generation {}: {}",
                    peer,
                    version,
                    String.join("; ", offer.refusal().lines().toList()));
        }
        if (offer.bundle().length > 0 && syncOn && offer.sync()) {
            take(peer, offer.version(), content);
        }
    }

    /**
     * What this instance serves, read together: the configuration it runs, the version and
     * content of its shared part, and the folder that content's files are kept in.
     */
    public record Served<C>(C running, ConfigVersion version, SharedContent content, Path files) {}

    public synchronized Served<C> served() {
        return new Served<>(running, version, shared, folder.sharedDir(version.digest()));
    }

    /** A peer's configuration with its content: applied when newer than the one in service. */
    private synchronized void take(String peer, ConfigVersion theirs, SharedContent content) {
        ConfigVersion ours = version;
        if (theirs.digest().equals(ours.digest())) {
            if (theirs.newerThan(ours)) { // the same content: take its name, so both say the same
                version = theirs;
                folder.persist(shared, version, fileDigest, filesAt);
            }
            return;
        }
        if (theirs.generation() == 0 || !theirs.newerThan(ours)) {
            if (theirs.generation() == ours.generation() && theirs.generation() > 0 && once("kept " + theirs)) {
                log.warn(
                        "concurrent changes: generation {} here and {} on {}; this one's wins (the greater instance name)",
                        ours,
                        theirs,
                        peer);
            }
            return;
        }
        if (theirs.equals(refused)) {
            return; // refused already; the peer was told
        }
        Path at = folder.sharedDir(content.digest());
        try {
            folder.write(content, at);
            C next = configs.over(content, at, running, "configuration generation " + theirs);
            applier.apply(next, content.loads());
            if (theirs.generation() == ours.generation()) {
                log.warn(
                        "concurrent changes: generation {} here and {} on {}; {}'s wins (the greater instance name)",
                        ours,
                        theirs,
                        peer,
                        peer);
            }
            log.info("configuration generation {} from {} applied", theirs, peer);
            filesAt = at;
            serve(next, content, theirs);
        } catch (SettingsException | IOException | RuntimeException e) {
            refused = theirs;
            refusal = configs.refusal(content, at, e); // no path of this host travels
            log.warn(
                    "configuration generation {} from {} refused; generation {} stays in service: {}",
                    theirs,
                    peer,
                    ours,
                    String.join("; ", refusal.lines().toList()));
            if (!content.digest().equals(shared.digest()) && !at.equals(filesAt)) {
                try {
                    StateFile.deleteTree(at);
                } catch (IOException ignored) {
                    // removed with the next change
                }
            }
        }
        tell.run();
    }

    /**
     * True the first time {@code what} is told: a peer repeats its state every heartbeat. A peer
     * that sends ever new generations cannot grow the memory: past the bound it starts afresh
     * (and a line may be logged again).
     */
    boolean once(String what) {
        if (logged.size() >= MAX_LOGGED) {
            logged.clear();
        }
        return logged.add(what);
    }

    /** Why the pair is out of sync, or null when it is not (peers passing a change through are not). */
    public String drift() {
        long now = clock.millis();
        List<String> why = new ArrayList<>();
        for (var e : peers.entrySet()) {
            Offer o = e.getValue().offer();
            if (o.refused() != null && o.refused().equals(version)) {
                why.add(e.getKey() + " refused generation " + version.generation() + ": "
                        + o.refusal().lines().findFirst().orElse(""));
            } else if (!o.version().digest().equals(version.digest())
                    && e.getValue().differsSince() > 0
                    && now - e.getValue().differsSince() >= SETTLE_MILLIS) {
                why.add(e.getKey() + " serves generation " + o.version() + ", this one " + version);
            }
        }
        return why.isEmpty() ? null : String.join("; ", why);
    }

    /**
     * The shared configuration here and on each paired peer ({@code links}, as peer sync lists
     * them). In sync only when every peer is connected and serves the same content, and none
     * refused this instance's: a peer that cannot be reached is unknown since it was last heard,
     * whatever it served then.
     */
    public ConfigStatus status(List<PeerStatus> links) {
        Served<C> here = served();
        ConfigVersion v = here.version();
        List<ConfigStatus.Peer> out = new ArrayList<>();
        boolean all = true;
        for (PeerStatus link : links) {
            PeerConfig pc = peers.get(link.name());
            boolean connected = CONNECTED.equals(link.state());
            long heard = Math.max(pc == null ? 0 : pc.heardAt(), millis(link.lastHeartbeat()));
            String lastHeard = heard == 0 ? null : Instant.ofEpochMilli(heard).toString();
            if (pc == null) {
                all = false;
                out.add(new ConfigStatus.Peer(
                        link.name(),
                        null,
                        null,
                        null,
                        null,
                        false,
                        null,
                        lastHeard,
                        connected,
                        connected ? ConfigStatus.NOT_HEARD : unknown(lastHeard)));
                continue;
            }
            Offer o = pc.offer();
            boolean same = o.version().digest().equals(v.digest());
            String refusedOurs = o.refused() != null && o.refused().equals(v) ? o.refusal() : null;
            String state = !connected
                    ? unknown(lastHeard)
                    : refusedOurs != null ? ConfigStatus.REFUSED : same ? ConfigStatus.IN_SYNC : ConfigStatus.DIFFERS;
            all &= connected && same && refusedOurs == null;
            out.add(new ConfigStatus.Peer(
                    link.name(),
                    o.version().generation(),
                    o.version().origin(),
                    o.version().digest(),
                    o.sync(),
                    same,
                    refusedOurs,
                    lastHeard,
                    connected,
                    state));
        }
        ConfigVersion r = refused;
        return new ConfigStatus(
                instance,
                v.generation(),
                v.origin(),
                v.digest(),
                syncOn,
                all,
                r == null ? null : "generation " + r + ": " + refusal,
                out,
                null,
                null);
    }

    /** How peer sync lists a link that is up ({@link PeerSync#status()}). */
    private static final String CONNECTED = PeerLink.State.CONNECTED.name().toLowerCase(java.util.Locale.ROOT);

    private static String unknown(String lastHeard) {
        return ConfigStatus.UNKNOWN + (lastHeard == null ? " (never heard)" : " since " + lastHeard);
    }

    private static long millis(String instant) {
        return instant == null ? 0 : Instant.parse(instant).toEpochMilli();
    }

    /**
     * What differs between the shared configuration here and {@code peer}'s, file by file: lines
     * only here ({@code -}) and only there ({@code +}), at most {@code maxLines} per file.
     */
    public List<String> diff(String peer, int maxLines) {
        PeerConfig pc = peers.get(peer);
        if (pc == null) {
            throw new IllegalArgumentException("nothing was heard of " + peer + "'s configuration yet");
        }
        Served<C> here = served();
        ConfigVersion theirs = pc.offer().version();
        if (theirs.digest().equals(here.version().digest())) {
            return List.of(); // the same content, whichever copy of it was heard last
        }
        if (pc.content() == null) {
            throw new IllegalArgumentException(peer + " serves generation " + theirs
                    + " and has not sent its content yet: it comes with its next change or when it reconnects");
        }
        return SharedDiff.lines(
                here.content().entries(), pc.content().entries(), here.version(), peer, theirs, maxLines);
    }
}
