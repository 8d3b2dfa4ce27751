package dev.gslb.server.dnssec;

import dev.gslb.api.Json;
import dev.gslb.dns.dnssec.KeyFile;
import dev.gslb.dns.dnssec.KeyFileException;
import dev.gslb.dns.dnssec.KeyTimeline;
import dev.gslb.sync.KeyExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * The DNSSEC keys a pair shares. Both instances answer for a signed zone, so both must sign with
 * the keys the parent's DS trusts: each offers its peers the keys it made (its key folders; keys
 * given as files travel with the shared configuration instead), and takes a peer's keys of a zone
 * when they should win. The older key set wins, the one whose KSK was made first: its DS is the
 * one the parent is likely to hold, so an instance started later, or whose state folder was
 * lost, takes the keys in service rather than pushing new ones. Between two sets of the same age
 * (the same keys, a roll step made by one), the one changed last wins; then the greater instance
 * name. Both sides apply the same rule, so a pair agrees after one exchange.
 */
public final class KeySharing implements KeyExchange {
    private static final Logger log = LoggerFactory.getLogger(KeySharing.class);

    /** A key as offered: its two files' text. */
    record Pair(String key, String secret) {}

    /** One zone's keys as offered. */
    record Shared(String zone, List<Pair> keys) {}

    /** The whole offer's content (JSON). */
    record Content(List<Shared> zones) {}

    private final ZoneKeyStore store;
    private final String instance;
    private final Path staging;
    private final Runnable publish;
    private final Clock clock;
    private final AtomicLong generation = new AtomicLong();
    private volatile Offer current;
    /** Each peer's keys as last offered: zone -> digest. */
    private final Map<String, Map<String, String>> peers = new ConcurrentHashMap<>();

    /**
     * @param staging where a peer's key files are read before they are taken (under the state folder)
     * @param publish tells the peers this instance's offer changed ({@code PeerSync::publishKeys})
     */
    public KeySharing(ZoneKeyStore store, String instance, Path staging, Runnable publish, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.instance = instance;
        this.staging = staging;
        this.publish = publish;
        this.current = offer(0);
    }

    /** The keys made here changed (made, rolled, taken): the peers are offered them. */
    public void changed() {
        current = offer(generation.incrementAndGet());
        publish.run();
    }

    private Offer offer(long g) {
        List<Shared> zones = new ArrayList<>();
        store.made()
                .forEach((zone, keys) -> zones.add(new Shared(
                        zone.toString(),
                        keys.stream()
                                .map(k -> new Pair(k.keyText(), k.privateText()))
                                .toList())));
        return new Offer(g, instance, Json.compact(new Content(zones)).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Offer current() {
        return current;
    }

    @Override
    public void received(String peer, Offer offer) {
        Content content;
        try {
            content = Json.MAPPER.readValue(offer.content(), Content.class);
        } catch (IOException | RuntimeException e) {
            log.warn("dnssec: the keys {} offered do not read: {}", peer, e.getMessage());
            return;
        }
        Map<Name, List<KeyFile>> ours = store.made();
        Map<String, String> digests = new TreeMap<>();
        for (Shared z : content.zones() == null ? List.<Shared>of() : content.zones()) {
            Name zone;
            try {
                zone = Name.fromString(z.zone(), Name.root);
            } catch (TextParseException e) {
                log.warn("dnssec: {} offered keys of '{}', not a zone name", peer, z.zone());
                continue;
            }
            List<KeyFile> theirs = read(peer, z);
            if (theirs == null) {
                continue;
            }
            digests.put(zone.toString(), digest(theirs));
            List<KeyFile> mine = ours.get(zone);
            if (mine == null || digest(mine).equals(digest(theirs))) {
                continue; // not signed with keys made here, or the same keys
            }
            if (wins(theirs, offer.origin(), mine, instance, clock.instant())) {
                try {
                    store.adopt(zone, theirs);
                    log.info(
                            "dnssec: zone {}: took {}'s keys ({}) in place of ours ({})",
                            zone,
                            peer,
                            tags(theirs),
                            tags(mine));
                } catch (IOException | KeyFileException | RuntimeException e) {
                    log.warn("dnssec: zone {}: {}'s keys could not be taken: {}", zone, peer, e.getMessage());
                }
            }
        }
        peers.put(peer, digests);
    }

    /** The key files a peer offered for one zone, read and checked as files are; null when any is wrong. */
    private List<KeyFile> read(String peer, Shared z) {
        if (z.keys() == null || z.keys().isEmpty() || z.keys().size() > ZoneKeyStore.MAX_KEY_FILES) {
            log.warn(
                    "dnssec: {} offered {} keys of {}",
                    peer,
                    z.keys() == null ? 0 : z.keys().size(),
                    z.zone());
            return null;
        }
        Path dir = null;
        try {
            Files.createDirectories(
                    staging, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            dir = Files.createTempDirectory(
                    staging,
                    "from-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            List<KeyFile> keys = new ArrayList<>();
            for (int i = 0; i < z.keys().size(); i++) {
                Pair p = z.keys().get(i);
                Path secret = dir.resolve("k" + i + ".private");
                Files.writeString(dir.resolve("k" + i + ".key"), p.key());
                Files.writeString(secret, p.secret());
                keys.add(KeyFile.read(secret));
            }
            return keys;
        } catch (IOException | KeyFileException | RuntimeException e) {
            log.warn("dnssec: the keys {} offered for {} are not taken: {}", peer, z.zone(), e.getMessage());
            return null;
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.warn("dnssec: {} could not be removed: {}", dir, e.toString());
        }
    }

    /** Whether {@code theirs} (from {@code from}) should replace {@code mine} (of {@code self}) at {@code now}. */
    static boolean wins(List<KeyFile> theirs, String from, List<KeyFile> mine, String self, Instant now) {
        int age = born(theirs).compareTo(born(mine));
        if (age != 0) {
            return age < 0; // the older set: its DS is the one the parent likely holds
        }
        int change = changed(theirs, now).compareTo(changed(mine, now));
        if (change != 0) {
            return change > 0;
        }
        return from.compareTo(self) > 0;
    }

    /** When the oldest key of a set was made. */
    private static Instant born(List<KeyFile> keys) {
        return keys.stream()
                .map(KeyTimeline::made)
                .min(Comparator.naturalOrder())
                .orElse(Instant.MAX);
    }

    /**
     * When a set last changed: the latest of its timings that has come (a roll writes its new key's
     * Created and Publish as it starts; the steps it plans are in the future and say nothing of when).
     */
    private static Instant changed(List<KeyFile> keys, Instant now) {
        return keys.stream()
                .flatMap(k -> k.timings().byTag().values().stream())
                .filter(t -> !t.isAfter(now))
                .max(Comparator.naturalOrder())
                .orElse(Instant.MIN);
    }

    /** A short digest of a key set: its keys and their timings, in any order. */
    static String digest(List<KeyFile> keys) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            keys.stream()
                    .map(k -> k.keyText()
                                    .lines()
                                    .filter(l -> !l.startsWith(";"))
                                    .findFirst()
                                    .orElse("")
                            + k.timings().byTag())
                    .sorted()
                    .forEach(s -> d.update(s.getBytes(StandardCharsets.UTF_8)));
            return HexFormat.of().formatHex(d.digest(), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Integer> tags(List<KeyFile> keys) {
        return keys.stream().map(KeyFile::tag).sorted().toList();
    }

    /**
     * For {@code gslb config status}: each zone's key digest here, and as each peer last offered
     * it (a peer that offered none of a zone lacks its keys).
     */
    public dev.gslb.api.ConfigStatus.Keys status() {
        Map<String, String> here = new TreeMap<>();
        store.made().forEach((zone, keys) -> here.put(zone.toString(), digest(keys)));
        Map<String, Map<String, String>> of = new LinkedHashMap<>();
        new TreeMap<>(peers).forEach(of::put);
        return new dev.gslb.api.ConfigStatus.Keys(here, of);
    }
}
