package dev.gslb.server.dnssec;

import dev.gslb.api.DnssecChanged;
import dev.gslb.api.DnssecView;
import dev.gslb.api.DsView;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.dns.dnssec.KeyFileException;
import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.KeyRole;
import dev.gslb.dns.dnssec.KeyTimeline;
import dev.gslb.dns.dnssec.KeyTimings;
import dev.gslb.dns.dnssec.KskRoll;
import dev.gslb.dns.dnssec.RollTtls;
import dev.gslb.dns.dnssec.SigningKey;
import dev.gslb.dns.dnssec.ZoneKeys;
import dev.gslb.dns.dnssec.ZskRoll;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.dns.zone.Zone;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.DClass;
import org.xbill.DNS.DNSSEC;
import org.xbill.DNS.DSRecord;
import org.xbill.DNS.Name;

/**
 * The keys of the zones signed here, kept in {@code <state folder>/dnssec/<zone>/} as BIND key
 * files (their timings are the roll: the folder alone is everything a peer needs), or read from
 * the files a zone's {@code ksk-file} and {@code zsk-file} give (never rewritten, never rolled
 * here). It makes a zone's keys when signing is turned on, starts the rolls their lifetimes
 * call for, writes each step before it comes, and publishes a {@link KeyRing} of the complete
 * zones to the query path at each change. A key file or folder that cannot be used leaves the
 * zone as it was served (unsigned if it was), says why in {@link #view}, and stops nothing else.
 */
public final class ZoneKeyStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ZoneKeyStore.class);
    /** A zone's folder holds a few keys (two or three, four in a roll): more is not a key folder. */
    static final int MAX_KEY_FILES = 64;
    /** Wake at least this often, so a clock step or a missed timer is caught up. */
    private static final Duration LONGEST_SLEEP = Duration.ofHours(1);

    /** One signed zone as last read: its keys, which are given, and what went wrong if anything. */
    private record Signed(
            Name zone,
            DnssecSettings settings,
            RollTtls ttls,
            Path folder,
            List<KeyFile> keys,
            Set<Path> given,
            String error) {
        KeyTimeline timeline() {
            return new KeyTimeline(zone, keys, settings.csk());
        }

        boolean givenRole(KeyRole role) {
            return keys.stream().anyMatch(k -> isGiven(k) && KeyRole.of(k, settings.csk()) == role);
        }

        ZskRoll zskRoll() {
            return new ZskRoll(
                    givenRole(KeyRole.ZSK) ? Duration.ZERO : settings.zskLifetime(), ttls, settings.algorithmNumber());
        }

        KskRoll kskRoll() {
            KeyRole role = settings.csk() ? KeyRole.CSK : KeyRole.KSK;
            return new KskRoll(
                    givenRole(role) ? Duration.ZERO : settings.kskLifetime(), ttls, settings.algorithmNumber(), role);
        }

        boolean isGiven(KeyFile k) {
            return k.privateFile() != null && given.contains(k.privateFile());
        }

        /**
         * A time the clock has surely passed: the newest creation of the keys made here or by a peer
         * (a given file's may come from any clock).
         */
        Instant notBefore() {
            return keys.stream()
                    .filter(k -> !isGiven(k))
                    .map(k -> k.timings().created())
                    .filter(java.util.Objects::nonNull)
                    .max(Comparator.naturalOrder())
                    .orElse(Instant.EPOCH);
        }

        /** Whether {@code now} is far before {@link #notBefore}: the clock went back, or is far off. */
        boolean clockBehind(Instant now) {
            return ZoneKeys.clockBehind(now, notBefore());
        }

        /** What a clock behind the keys is, said for the log, the alert and a refused roll. */
        String clockBehindWhy(Instant now) {
            return "the clock says " + now + ", before the keys of " + zone + " were made (" + notBefore()
                    + "): it is far off";
        }

        Signed with(List<KeyFile> k, String e) {
            return new Signed(zone, settings, ttls, folder, k, given, e);
        }
    }

    private final Path root;
    private final Consumer<KeyRing> publish;
    private final Clock clock;
    private final ScheduledExecutorService timer;
    /** Guarded by this. */
    private final Map<Name, Signed> zones = new LinkedHashMap<>();
    /** Guarded by this. */
    private KeyRing published = KeyRing.EMPTY;
    /** Why the clock cannot be right (before keys made here or by a peer), or null. */
    private volatile String clockProblem;
    /** Guarded by this. */
    private ScheduledFuture<?> wake;
    /** Told when the keys this instance made or took change (made, rolled, taken from a peer). */
    private volatile Runnable changed = () -> {};
    /** Guarded by this: what {@link #changed} was last told about. */
    private Map<Name, List<String>> madeBefore = Map.of();

    /**
     * @param root    the folder of every zone's key folder: {@code <state folder>/dnssec}
     * @param publish where a new ring goes: the query path ({@code Responder::keys})
     */
    public ZoneKeyStore(Path root, Consumer<KeyRing> publish, Clock clock) {
        this.root = root;
        this.publish = publish;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("dnssec-keys").factory());
    }

    /**
     * Takes the signed zones of {@code authority} (at start, and after every reload): makes the
     * keys of a zone newly signed, re-reads the others, drops the zones no longer signed, and
     * publishes the ring.
     */
    public synchronized void zones(Authority authority) {
        Map<Name, Signed> next = new LinkedHashMap<>();
        Instant now = now();
        for (Zone z : authority.zones().all()) {
            DnssecSettings s = z.dnssec();
            if (s == null) {
                continue;
            }
            RollTtls ttls = RollTtls.of(z, s, authority.wideIps().values());
            Signed before = zones.get(z.origin());
            next.put(z.origin(), load(z.origin(), s, ttls, before, now));
        }
        zones.clear();
        zones.putAll(next);
        step();
    }

    /** Starts a roll of the zone's ZSK, or of its KSK (its CSK with keys: csk), now. */
    public synchronized DnssecChanged roll(Name zone, String kind) throws IOException {
        Signed s = signed(zone);
        Instant now = now();
        List<KeyFile> changed;
        boolean ksk = switch (kind.toLowerCase(Locale.ROOT)) {
            case "ksk", "csk" -> true;
            case "zsk" -> false;
            default -> throw new IllegalArgumentException("roll ksk or zsk, not '" + kind + "'");
        };
        if (!ksk && s.settings().csk()) {
            throw new IllegalArgumentException(zone + " has one combined key (keys: csk): roll it as ksk");
        }
        KeyRole role = ksk ? (s.settings().csk() ? KeyRole.CSK : KeyRole.KSK) : KeyRole.ZSK;
        if (s.givenRole(role)) {
            throw new IllegalStateException("the " + role.word() + " of " + zone + " is given as a file ("
                    + (ksk ? "ksk-file" : "zsk-file") + "): roll it by giving the new key's file and reloading");
        }
        if (s.keys().isEmpty()) {
            throw new IllegalStateException(zone + " has no keys" + (s.error() == null ? "" : ": " + s.error()));
        }
        if (s.clockBehind(now)) {
            throw new IllegalStateException(s.clockBehindWhy(now) + "; set it right first");
        }
        changed = ksk ? s.kskRoll().start(s.timeline(), now) : s.zskRoll().start(s.timeline(), now);
        zones.put(zone, write(s, changed));
        step();
        return changed(zone, now);
    }

    /** The operator's word that the parent of {@code zone} has the new KSK's DS: the old one may leave. */
    public synchronized DnssecChanged submitted(Name zone) throws IOException {
        Signed s = signed(zone);
        Instant now = now();
        zones.put(zone, write(s, s.kskRoll().submitted(s.timeline(), now)));
        step();
        return changed(zone, now);
    }

    /** Every signed zone, its keys and what comes next. */
    public synchronized DnssecView view() {
        Instant now = now();
        List<DnssecView.Zone> out = new ArrayList<>();
        for (Signed s : zones.values()) {
            KeyTimeline t = s.timeline();
            List<DnssecView.Key> keys = new ArrayList<>();
            for (KeyFile k : t.keys()) {
                Map<String, String> timings = new LinkedHashMap<>();
                k.timings().byTag().forEach((tag, at) -> timings.put(tag, at.toString()));
                keys.add(new DnssecView.Key(
                        k.tag(),
                        t.role(k).word(),
                        k.algorithm(),
                        t.state(k, now).word(),
                        KeyTimeline.cds(k, now),
                        String.valueOf(k.privateFile()),
                        s.isGiven(k),
                        timings));
            }
            Next n = next(s, now);
            ZoneKeys zk = new ZoneKeys(s.zone(), s.settings(), t.signing(now, 0));
            boolean signed = published.of(s.zone()) != null;
            String why = s.error() != null
                    ? s.error()
                    : signed ? null : zk.complete() ? "not published yet" : "no key signs " + missing(zk) + " now";
            out.add(new DnssecView.Zone(
                    s.zone().toString(),
                    signed,
                    why,
                    s.settings().algorithm(),
                    s.settings().keys(),
                    s.folder().toString(),
                    keys,
                    n == null ? null : n.what(),
                    n == null || n.at() == null ? null : n.at().toString()));
        }
        return new DnssecView(out);
    }

    /** The DS records the parent of {@code zone} should hold: one per KSK or CSK that is not leaving. */
    public synchronized DsView ds(Name zone) {
        Signed s = signed(zone);
        Instant now = now();
        KeyTimeline t = s.timeline();
        List<DsView.Ds> out = new ArrayList<>();
        for (KeyFile k : t.keys()) {
            KeyRole role = t.role(k);
            boolean leaving = k.timings().syncDelete() != null || k.timings().inactive() != null;
            if (!role.signsKeys() || leaving || t.state(k, now) == KeyTimeline.State.REMOVED) {
                continue;
            }
            long ttl = s.ttls().dnskeyTtl().toSeconds();
            var dnskey = t.signing(now.isBefore(KeyTimeline.made(k)) ? KeyTimeline.made(k) : now, ttl).stream()
                    .map(SigningKey::dnskey)
                    .filter(d -> d.getFootprint() == k.tag())
                    .findFirst()
                    .orElse(null);
            if (dnskey == null) {
                continue;
            }
            DSRecord ds = new DSRecord(zone, DClass.IN, RollTtls.DS_TTL.toSeconds(), DNSSEC.Digest.SHA256, dnskey);
            Instant from = k.timings().syncPublish();
            out.add(new DsView.Ds(
                    k.tag(),
                    role.word(),
                    line(ds),
                    line(dnskey),
                    from != null && from.isAfter(now) ? from.toString() : null));
        }
        return new DsView(zone.toString(), out);
    }

    /** A record as a zone-file line a registrar's form takes: single spaces, no tabs. */
    private static String line(org.xbill.DNS.Record r) {
        return r.getName() + " " + r.getTTL() + " IN " + org.xbill.DNS.Type.string(r.getType()) + " "
                + r.rdataToString();
    }

    /** Now, to the second: the key files keep timings to the second, and what is used is what is written. */
    private Instant now() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    /** The ring published now. */
    public synchronized KeyRing ring() {
        return published;
    }

    /** Why the clock cannot be right, for the alerts: it says a time before keys were made; null when none. */
    public String clockProblem() {
        return clockProblem;
    }

    /** Who is told when the keys made here (not those given as files) change: the peers' sharing. */
    public void onChange(Runnable r) {
        changed = r;
    }

    /**
     * The keys of each signed zone that this instance made or took from a peer (its folder's), not
     * those given as files: what the peers are offered. A zone whose keys did not read is left out.
     */
    public synchronized Map<Name, List<KeyFile>> made() {
        Map<Name, List<KeyFile>> out = new LinkedHashMap<>();
        for (Signed s : zones.values()) {
            List<KeyFile> mine = s.keys().stream().filter(k -> !s.isGiven(k)).toList();
            if (s.error() == null && !mine.isEmpty()) {
                out.put(s.zone(), mine);
            }
        }
        return out;
    }

    /**
     * Takes a peer's keys for {@code zone} in place of the ones this instance made: they are
     * written into the zone's folder and the others there removed (given files stay), then read
     * back as at start; an error leaves the zone as it was served.
     */
    public synchronized void adopt(Name zone, List<KeyFile> theirs) throws IOException, KeyFileException {
        Signed s = signed(zone);
        Instant now = now();
        for (KeyFile k : theirs) { // all checked before the folder is touched
            check(k.privateFile(), k, zone, s.settings());
            Instant created = k.timings().created();
            if (created != null && ZoneKeys.clockBehind(now, created)) {
                // taken, it would make this clock look far behind and stop new signatures here
                throw new KeyFileException("a key offered for " + zone + " says it was made at " + created
                        + ", after now (" + now + "): not taken; the clocks of this pair differ");
            }
        }
        if (!new KeyTimeline(zone, theirs, s.settings().csk())
                .signing(now, 0).stream().anyMatch(k -> k.signsZone() || k.signsKeys())) {
            throw new KeyFileException("the keys offered for " + zone + " sign nothing now: not taken");
        }
        Set<Integer> given = new java.util.HashSet<>();
        s.keys().stream().filter(s::isGiven).forEach(k -> given.add(k.tag()));
        Set<Integer> taken = new java.util.HashSet<>();
        for (KeyFile k : theirs) {
            if (!given.contains(k.tag())) {
                k.write(s.folder());
                taken.add(k.tag());
            }
        }
        for (KeyFile k : s.keys()) {
            if (!s.isGiven(k) && !taken.contains(k.tag()) && k.privateFile() != null) {
                Files.deleteIfExists(KeyFile.publicFile(k.privateFile()));
                Files.deleteIfExists(k.privateFile());
            }
        }
        zones.put(zone, load(zone, s.settings(), s.ttls(), s, now()));
        step();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private Signed signed(Name zone) {
        Signed s = zones.get(zone);
        if (s == null) {
            throw new IllegalArgumentException(zone + " is not a zone with dnssec: here");
        }
        return s;
    }

    private static String missing(ZoneKeys zk) {
        return zk.zoneSigning().isEmpty() ? "the zone" : "the DNSKEY RRset";
    }

    private DnssecChanged changed(Name zone, Instant now) {
        Signed s = zones.get(zone);
        List<String> steps = new ArrayList<>();
        KeyTimeline t = s.timeline();
        for (KeyFile k : t.keys()) {
            k.timings().byTag().forEach((tag, at) -> {
                if (at.isAfter(now)) {
                    steps.add(at + " " + t.role(k).word() + " " + k.tag() + " " + tag);
                }
            });
        }
        steps.sort(Comparator.naturalOrder());
        if (s.kskRoll().waitingForDs(t, now)) {
            steps.add("then: once the parent has the new DS (gslb dnssec ds " + zone + "), gslb dnssec submitted "
                    + zone);
        }
        return new DnssecChanged(zone.toString(), steps);
    }

    /** Reads (and makes what is missing of) one zone's keys; on error, what was served stays, with the error. */
    private Signed load(Name zone, DnssecSettings s, RollTtls ttls, Signed before, Instant now) {
        Path folder = root.resolve(KeyFile.fileName(zone));
        Signed empty = new Signed(zone, s, ttls, folder, List.of(), Set.of(), null);
        try {
            List<KeyFile> keys = new ArrayList<>();
            Set<Path> given = new java.util.HashSet<>();
            boolean givenKsk = s.kskFile() != null;
            boolean givenZsk = s.zskFile() != null;
            if (givenKsk) {
                keys.add(given(zone, s, s.kskFile(), true));
                given.add(s.kskFile());
            }
            if (givenZsk) {
                keys.add(given(zone, s, s.zskFile(), false));
                given.add(s.zskFile());
            }
            for (KeyFile k : folder(folder, zone, s, now)) {
                if (k.secureEntryPoint() ? !givenKsk : !givenZsk) {
                    keys.add(k);
                }
            }
            Signed read = new Signed(zone, s, ttls, folder, keys, Set.copyOf(given), null);
            return made(read, now);
        } catch (KeyFileException | IOException | RuntimeException e) {
            String why = e instanceof KeyFileException ? e.getMessage() : folder + ": " + e;
            log.warn("dnssec: zone {} keeps the keys it had (none: unsigned): {}", zone, why);
            return (before == null ? empty : before).with(before == null ? List.of() : before.keys(), why);
        }
    }

    private static KeyFile given(Name zone, DnssecSettings s, Path file, boolean sep) throws KeyFileException {
        KeyFile k = KeyFile.read(file);
        check(file, k, zone, s);
        if (k.secureEntryPoint() != sep) {
            throw new KeyFileException(file + ": flags " + k.dnskey().getFlags() + ": "
                    + (sep ? "ksk-file" : "zsk-file") + " takes a key with flags " + (sep ? 257 : 256));
        }
        return k;
    }

    private static void check(Path file, KeyFile k, Name zone, DnssecSettings s) throws KeyFileException {
        if (!k.zone().equals(zone)) {
            throw new KeyFileException(file + ": a key of " + k.zone() + ", not of " + zone);
        }
        if (k.algorithm() != s.algorithmNumber()) {
            throw new KeyFileException(file + ": a key of algorithm " + k.algorithm() + " but the zone's algorithm is "
                    + s.algorithm() + " (" + s.algorithmNumber() + "); changing the algorithm is not done here:"
                    + " move the folder away and reload to make new keys");
        }
    }

    /** The keys of a zone's folder (made mode 700 if it is not there); those deleted in the past are removed. */
    private static List<KeyFile> folder(Path folder, Name zone, DnssecSettings s, Instant now)
            throws IOException, KeyFileException {
        if (Files.isSymbolicLink(folder)) {
            throw new KeyFileException(folder + ": a symbolic link, not the zone's key folder");
        }
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            throw new KeyFileException(folder + ": not a folder");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(folder);
        if (mode.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
            throw new KeyFileException(folder + ": mode " + java.nio.file.attribute.PosixFilePermissions.toString(mode)
                    + ": a folder of private keys must be 700 (chmod 700 it)");
        }
        List<KeyFile> keys = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(folder, "*.private")) {
            for (Path p : d) {
                if (keys.size() >= MAX_KEY_FILES) {
                    throw new KeyFileException(folder + ": more than " + MAX_KEY_FILES + " key files");
                }
                KeyFile k = KeyFile.read(p);
                check(p, k, zone, s);
                if (k.timings().delete() != null && !k.timings().delete().isAfter(now)) {
                    Files.deleteIfExists(KeyFile.publicFile(p)); // out of the zone: its files go too
                    Files.deleteIfExists(p);
                    continue;
                }
                keys.add(k);
            }
        }
        keys.sort(Comparator.comparing(KeyTimeline::made).thenComparing(KeyFile::tag));
        return keys;
    }

    /** Makes the keys a zone lacks: a KSK and a ZSK, or a CSK, published and active now. */
    private static Signed made(Signed s, Instant now) throws IOException {
        KeyTimeline t = s.timeline();
        List<KeyFile> make = new ArrayList<>();
        int alg = s.settings().algorithmNumber();
        if (s.settings().csk()) {
            if (t.live(KeyRole.CSK, now).isEmpty()) {
                make.add(KeyFile.generate(s.zone(), alg, KeyFile.KSK_FLAGS, KeyTimings.madeAt(now)));
            }
        } else {
            if (t.live(KeyRole.KSK, now).isEmpty()) {
                make.add(KeyFile.generate(s.zone(), alg, KeyFile.KSK_FLAGS, KeyTimings.madeAt(now)));
            }
            if (t.live(KeyRole.ZSK, now).isEmpty()) {
                make.add(KeyFile.generate(s.zone(), alg, KeyFile.ZSK_FLAGS, KeyTimings.madeAt(now)));
            }
        }
        if (!make.isEmpty()) {
            log.info("dnssec: zone {}: made {} key(s) in {}", s.zone(), make.size(), s.folder());
        }
        return make.isEmpty() ? s : write(s, make);
    }

    /**
     * Writes {@code changed} (new keys and new timings of known ones) into the zone's folder
     * before anything uses them; the given files are never written.
     */
    private static Signed write(Signed s, List<KeyFile> changed) throws IOException {
        Map<Integer, KeyFile> byTag = new LinkedHashMap<>();
        s.keys().forEach(k -> byTag.put(k.tag(), k));
        for (KeyFile c : changed) {
            if (c.privateFile() != null && s.given().contains(c.privateFile())) {
                throw new IllegalStateException(c.privateFile() + " is given as a file: not rewritten");
            }
            byTag.put(c.tag(), c.write(s.folder()));
        }
        return s.with(List.copyOf(byTag.values()), null);
    }

    /** What happens next in a zone: a key's timing, or a roll that starts by itself (at null: when the operator says). */
    private record Next(Instant at, String what) {}

    private static Next next(Signed s, Instant now) {
        KeyTimeline t = s.timeline();
        List<Next> all = new ArrayList<>();
        KeyTimeline.Event e = t.next(now);
        if (e != null) {
            all.add(new Next(e.at(), t.role(e.key()).word() + " " + e.key().tag() + " " + e.timing()));
        }
        Instant zsk = s.settings().csk() ? null : s.zskRoll().due(t, now);
        if (zsk != null) {
            all.add(new Next(zsk, "a ZSK roll starts"));
        }
        Instant ksk = s.kskRoll().due(t, now);
        if (ksk != null) {
            all.add(new Next(ksk, "a " + (s.settings().csk() ? "CSK" : "KSK") + " roll starts"));
        }
        if (s.kskRoll().waitingForDs(t, now) && all.isEmpty()) {
            return new Next(null, "waiting for gslb dnssec submitted " + s.zone());
        }
        return all.stream().min(Comparator.comparing(Next::at)).orElse(null);
    }

    /**
     * Starts the rolls that are due, publishes the ring when it changed, and sets the timer for the
     * next step. A zone whose keys were made after what the clock says keeps the keys in service and
     * starts no roll: the clock is far off ({@link #clockProblem}).
     */
    private void step() {
        Instant now = now();
        String clockWrong = null;
        for (Map.Entry<Name, Signed> entry : zones.entrySet()) {
            Signed s = entry.getValue();
            if (s.keys().isEmpty()) {
                continue;
            }
            if (s.clockBehind(now)) {
                clockWrong = s.clockBehindWhy(now)
                        + "; the keys and signatures in service are kept and no roll starts until it is right";
                continue;
            }
            try {
                KeyTimeline t = s.timeline();
                Instant zsk = s.settings().csk() ? null : s.zskRoll().due(t, now);
                if (zsk != null && !zsk.isAfter(now)) {
                    s = write(s, s.zskRoll().start(t, now));
                    log.info("dnssec: zone {}: ZSK roll started", s.zone());
                    t = s.timeline();
                }
                Instant ksk = s.kskRoll().due(t, now);
                if (ksk != null && !ksk.isAfter(now)) {
                    s = write(s, s.kskRoll().start(t, now));
                    log.info("dnssec: zone {}: KSK roll started (its DS goes to the parent: gslb dnssec ds)", s.zone());
                }
                entry.setValue(s);
            } catch (IOException | RuntimeException e) {
                log.warn("dnssec: zone {}: a roll step could not be written: {}", s.zone(), e.toString());
                entry.setValue(s.with(s.keys(), "a roll step could not be written: " + e.getMessage()));
            }
        }
        Map<Name, ZoneKeys> ring = new HashMap<>();
        Instant wakeAt = now.plus(LONGEST_SLEEP);
        for (Signed s : zones.values()) {
            if (s.clockBehind(now)) {
                ZoneKeys before = published.of(s.zone());
                if (before != null) {
                    ring.put(s.zone(), before);
                }
                continue;
            }
            ZoneKeys zk = new ZoneKeys(
                    s.zone(),
                    s.settings(),
                    s.timeline().signing(now, s.ttls().dnskeyTtl().toSeconds()),
                    s.notBefore());
            if (zk.complete()) {
                ring.put(s.zone(), zk);
            }
            Next n = next(s, now);
            if (n != null && n.at() != null && n.at().isBefore(wakeAt)) {
                wakeAt = n.at();
            }
        }
        if (clockWrong != null && !clockWrong.equals(clockProblem)) {
            log.error("dnssec: {}", clockWrong);
        }
        clockProblem = clockWrong;
        KeyRing next = new KeyRing(ring);
        if (!same(next, published)) {
            published = next;
            publish.accept(next);
        }
        Map<Name, List<String>> made = new HashMap<>();
        made().forEach((zone, keys) -> made.put(
                zone,
                keys.stream()
                        .map(k -> k.tag() + " " + k.timings().byTag())
                        .sorted()
                        .toList()));
        if (!made.equals(madeBefore)) {
            madeBefore = made;
            changed.run();
        }
        if (wake != null) {
            wake.cancel(false);
        }
        long delay = Math.max(0, Duration.between(clock.instant(), wakeAt).toMillis()) + 1;
        wake = timer.schedule(this::timed, delay, TimeUnit.MILLISECONDS);
    }

    private synchronized void timed() {
        try {
            step();
        } catch (RuntimeException e) {
            log.warn("dnssec: a timed step failed: {}", e.toString());
        }
    }

    /** Same keys doing the same: publishing again would only empty the answer caches. */
    private static boolean same(KeyRing a, KeyRing b) {
        return describe(a).equals(describe(b));
    }

    private static Map<Name, List<String>> describe(KeyRing r) {
        Map<Name, List<String>> m = new HashMap<>();
        r.zones()
                .forEach((zone, zk) -> m.put(
                        zone,
                        zk.keys().stream()
                                .map(k -> k.dnskey().toString()
                                        + k.published()
                                        + k.signsZone()
                                        + k.signsKeys()
                                        + k.cds()
                                        + zk.settings())
                                .sorted()
                                .toList()));
        return m;
    }
}
