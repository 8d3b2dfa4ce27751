package dev.gslb.dns.transfer;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.zone.SecondarySettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.dns.zone.Zones;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Serial;
import org.xbill.DNS.Type;
import org.xbill.DNS.ZoneTransferException;
import org.xbill.DNS.ZoneTransferIn;

/**
 * One secondary zone: pulled from its primaries by IXFR (AXFR the first time, and when an IXFR
 * fails or does not fit), at the SOA's refresh, its retry after a failure, and at once on a
 * primary's NOTIFY; held until its expire has passed without a transfer, then answered SERVFAIL.
 * A transfer that fails, does not parse, breaks a zone rule, leaves no place for a configured wide
 * IP, is signed, runs past its bounds or brings a lower serial changes nothing; the reason is
 * logged. Each copy is kept in the state folder, its modification time the last time it was known
 * current, so a restart serves it before its first refresh. Runs on a virtual thread of its own.
 */
final class SecondaryZone implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SecondaryZone.class);
    /** Before the first copy: how soon a failed first transfer is tried again. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(10);

    /**
     * Bounds on one transfer in (records, and time from connect to the last message), and the
     * shortest wait between refreshes whatever the SOA says (a refresh of 0 would be a loop).
     */
    record Limits(int maxRecords, Duration maxTime, Duration minRefresh) {
        static final Limits DEFAULTS = new Limits(ZoneFile.MAX_RECORDS, Duration.ofMinutes(10), Duration.ofSeconds(60));
    }

    private final Name origin;
    private final SecondarySettings settings;
    private final TsigKey key;
    private final Path copyFile;
    private final Limits limits;
    private final Clock clock;
    private final Consumer<Zone> publish;
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean closed;
    /** The zone held (possibly expired), or a placeholder before the first copy. */
    private volatile Zone held;
    /** The wide IPs configured in this zone: a copy that leaves no place for one is refused. */
    private volatile List<Name> wideIps;
    /** When the zone was last known current (a transfer, or an IXFR that found it up to date); null: never. */
    private volatile Instant lastSuccess;
    /** Why the last refresh failed, or null after one that worked. */
    private volatile String lastProblem;

    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong axfrs = new AtomicLong();
    private final AtomicLong ixfrs = new AtomicLong();

    SecondaryZone(
            Name origin,
            SecondarySettings settings,
            TsigKey key,
            Path copyFile,
            Limits limits,
            Clock clock,
            Consumer<Zone> publish,
            List<Name> wideIps) {
        this.origin = origin;
        this.settings = settings;
        this.key = key;
        this.copyFile = copyFile;
        this.limits = limits;
        this.clock = clock;
        this.publish = publish;
        this.wideIps = List.copyOf(wideIps);
        this.held = readCopy();
        this.thread = Thread.ofVirtual().name("secondary " + origin).start(this::run);
    }

    Zone held() {
        return held;
    }

    /** The wide IPs configured in this zone (a new configuration may change them). */
    void wideIps(List<Name> names) {
        wideIps = List.copyOf(names);
    }

    /** Transfers taken of {@code type}: AXFR (a whole zone, asked either way) or IXFR (changes). */
    long taken(int type) {
        return (type == Type.IXFR ? ixfrs : axfrs).get();
    }

    /** Why the last refresh failed (every primary's reason), or null when it worked. */
    String lastProblem() {
        return lastProblem;
    }

    /** Refreshes that failed so far. */
    long failures() {
        return failures.get();
    }

    SecondarySettings settings() {
        return settings;
    }

    TsigKey key() {
        return key;
    }

    /** A primary said the zone changed: refresh now (several NOTIFY before the refresh make one). */
    void notified() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /** The copy kept from a previous run, served before the first refresh; its age counts toward expire. */
    private Zone readCopy() {
        if (copyFile == null || !Files.isRegularFile(copyFile)) {
            return Zone.placeholder(origin, settings);
        }
        try {
            Zone z = ZoneFile.load(copyFile, origin).heldFrom(settings);
            checkPlacement(z);
            lastSuccess = Files.getLastModifiedTime(copyFile).toInstant();
            if (expiredAt(z, clock.instant())) {
                log.warn(
                        "zone {}: the copy in {} is older than its expire; SERVFAIL until a transfer",
                        origin,
                        copyFile);
                return z.asExpired();
            }
            log.info(
                    "zone {}: serving the copy of serial {} from {}",
                    origin,
                    z.soa().getSerial(),
                    copyFile);
            return z;
        } catch (ZoneException | IOException | RefusedTransfer e) {
            log.warn(
                    "zone {}: the copy in {} is not served ({}); SERVFAIL until a transfer",
                    origin,
                    copyFile,
                    e.getMessage());
            return Zone.placeholder(origin, settings);
        }
    }

    private boolean expiredAt(Zone z, Instant now) {
        Instant last = lastSuccess;
        return last == null || now.isAfter(last.plusSeconds(z.soa().getExpire()));
    }

    private void run() {
        while (!closed) {
            Duration next = refresh() ? bounded(held.soa().getRefresh()) : retry();
            Zone z = held;
            if (!z.expired() && expiredAt(z, clock.instant())) {
                log.warn(
                        "zone {}: no transfer for its expire ({} s): answered SERVFAIL until one",
                        origin,
                        z.soa().getExpire());
                held = z.asExpired();
                publishing(held);
            }
            Instant last = lastSuccess;
            if (!held.expired() && last != null) { // wake for the expire, if it comes first
                Duration toExpire = Duration.between(
                        clock.instant(), last.plusSeconds(held.soa().getExpire()));
                next = toExpire.compareTo(next) < 0 ? toExpire.plusMillis(10) : next;
            }
            try {
                wake.tryAcquire(Math.max(1, next.toMillis()), TimeUnit.MILLISECONDS);
                wake.drainPermits();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Duration retry() {
        return lastSuccess == null ? FIRST_RETRY : bounded(held.soa().getRetry());
    }

    /** An SOA timer in seconds, at least the floor, at most a day. */
    private Duration bounded(long seconds) {
        Duration d = Duration.ofSeconds(Math.min(seconds, 86_400));
        return d.compareTo(limits.minRefresh()) < 0 ? limits.minRefresh() : d;
    }

    /** Tells the server of a new copy or an expiry; its failure (a bug) is logged, the zone goes on. */
    private void publishing(Zone z) {
        try {
            publish.accept(z);
        } catch (RuntimeException e) {
            log.warn("zone {}: serving its new copy failed: {}", origin, e.toString());
        }
    }

    /** One refresh from the first primary that answers; true when the zone is current (changed or not). */
    private boolean refresh() {
        List<String> problems = new ArrayList<>();
        for (InetSocketAddress primary : settings.primaries()) {
            if (closed) {
                return false;
            }
            try {
                Zone next = transfer(primary);
                lastSuccess = clock.instant();
                lastProblem = null; // before the copy is seen: who sees the new serial sees no stale problem
                if (next != null) {
                    held = next;
                    keep(next);
                    publishing(next);
                } else {
                    touch(); // the copy is current as of now: what a restart counts its expire from
                    if (held.expired()) { // current again after an expire
                        held = held.heldFrom(settings);
                        publishing(held);
                    }
                }
                return true;
            } catch (IOException | ZoneTransferException | ZoneException | RefusedTransfer | RuntimeException e) {
                String why = e instanceof SocketTimeoutException
                        ? "not over in time (the transfer's bound, "
                                + limits.maxTime().toSeconds() + " s, or the zone's expire)"
                        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                problems.add(primary + ": " + why);
                log.warn(
                        "zone {}: transfer from {} failed, the zone in service is unchanged: {}", origin, primary, why);
            }
        }
        lastProblem = String.join("; ", problems);
        failures.incrementAndGet();
        return false;
    }

    /** A transfer refused here (bounds, serial, rules), with the reason. */
    static final class RefusedTransfer extends Exception {
        /** An IXFR whose changes do not fit the zone held: the whole zone is asked for at once. */
        final boolean ixfrDoesNotFit;

        RefusedTransfer(String why) {
            this(why, false);
        }

        RefusedTransfer(String why, boolean ixfrDoesNotFit) {
            super(why);
            this.ixfrDoesNotFit = ixfrDoesNotFit;
        }
    }

    /** The zone after a transfer from {@code primary}, or null when it is current. */
    private Zone transfer(InetSocketAddress primary)
            throws IOException, ZoneTransferException, ZoneException, RefusedTransfer {
        try {
            return transfer(primary, lastSuccess != null); // a copy held, current or expired: IXFR from its serial
        } catch (RefusedTransfer e) {
            if (!e.ixfrDoesNotFit) {
                throw e;
            }
            log.warn("zone {}: {}; asking {} for the whole zone", origin, e.getMessage(), primary);
            return transfer(primary, false);
        }
    }

    private Zone transfer(InetSocketAddress primary, boolean incremental)
            throws IOException, ZoneTransferException, ZoneException, RefusedTransfer {
        Zone current = held;
        Instant last = lastSuccess;
        ZoneTransferIn x = incremental
                ? ZoneTransferIn.newIXFR(
                        origin, current.soa().getSerial(), true, primary, key == null ? null : key.tsig())
                : ZoneTransferIn.newAXFR(origin, primary, key == null ? null : key.tsig());
        Duration bound = limits.maxTime();
        if (last != null && !current.expired()) { // a stuck transfer must not hold a zone past its expire
            Duration left = Duration.between(
                    clock.instant(), last.plusSeconds(current.soa().getExpire()));
            bound = left.compareTo(bound) < 0
                    ? (left.isNegative() ? Duration.ofSeconds(1) : left.plusSeconds(1))
                    : bound;
        }
        x.setTimeout(bound);
        BoundedHandler h = new BoundedHandler(limits.maxRecords());
        long started = System.nanoTime();
        x.run(h);
        if (h.axfr == null && h.ixfr == null) {
            return null; // IXFR: up to date
        }
        List<Record> records;
        String kind;
        if (h.ixfr != null) {
            try {
                records = apply(current, h.ixfr);
            } catch (RefusedTransfer e) {
                throw new RefusedTransfer(e.getMessage(), true);
            }
            kind = "IXFR, " + h.ixfr.size() + " change(s)";
        } else {
            records = new ArrayList<>(h.axfr);
            records.removeLast(); // the closing SOA
            kind = "AXFR";
        }
        for (Record r : records) {
            if (r.getType() == Type.RRSIG) {
                throw new RefusedTransfer("the zone is signed (RRSIG records): a signed zone is not served as a"
                        + " secondary here; let its primary serve it, or sign it here from a file");
            }
        }
        Zone z = ZoneFile.of("transfer of " + origin + " from " + primary, origin, records)
                .heldFrom(settings);
        checkPlacement(z);
        long serial = z.soa().getSerial();
        if (last != null && Serial.compare(serial, current.soa().getSerial()) < 0) {
            throw new RefusedTransfer("the primary's serial " + serial + " is lower than ours, "
                    + current.soa().getSerial() + " (RFC 1982): not taken");
        }
        (h.ixfr != null ? ixfrs : axfrs).incrementAndGet();
        log.info(
                "zone {}: serial {} from {} by {} ({} records, {} ms)",
                origin,
                serial,
                primary,
                kind,
                z.recordCount(),
                (System.nanoTime() - started) / 1_000_000);
        return z;
    }

    /** The wide IPs configured here keep their place (no CNAME at one, no wildcard below a cut). */
    private void checkPlacement(Zone z) throws RefusedTransfer {
        for (Name w : wideIps) {
            try {
                Authority.checkPlacement(new Zones(List.of(z)), w);
            } catch (IllegalArgumentException e) {
                throw new RefusedTransfer(e.getMessage());
            }
        }
    }

    /** The records of {@code current} after the IXFR's changes; a change that does not fit it is refused. */
    private static List<Record> apply(Zone current, List<Change> changes) throws RefusedTransfer {
        Set<Record> records = new HashSet<>(current.records());
        long serial = current.soa().getSerial();
        for (Change d : changes) {
            if (d.start != serial) {
                throw new RefusedTransfer("IXFR change from serial " + d.start + " does not follow ours, " + serial);
            }
            for (Record r : d.deletes) {
                if (r.getType() != Type.SOA && !records.remove(r)) {
                    throw new RefusedTransfer("IXFR deletes " + r + ", which the zone does not hold");
                }
            }
            records.removeIf(r -> r.getType() == Type.SOA);
            records.addAll(d.adds); // the new SOA among them
            serial = d.end;
        }
        return new ArrayList<>(records);
    }

    /** Writes the copy a restart serves: the records, one per line, then moved into place. */
    private void keep(Zone z) {
        if (copyFile == null) {
            return;
        }
        try {
            Files.createDirectories(copyFile.getParent());
            Path tmp = copyFile.resolveSibling(copyFile.getFileName() + ".tmp");
            StringBuilder text =
                    new StringBuilder("; secondary zone ").append(origin).append(", kept by gslb\n");
            text.append(z.soa()).append('\n');
            for (Record r : z.records()) {
                if (r.getType() != Type.SOA) {
                    text.append(r).append('\n');
                }
            }
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, copyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("zone {}: cannot keep its copy in {}: {}", origin, copyFile, e.toString());
        }
    }

    /** Marks the kept copy current as of now (its modification time). */
    private void touch() {
        if (copyFile != null && Files.isRegularFile(copyFile)) {
            try {
                Files.setLastModifiedTime(copyFile, FileTime.from(clock.instant()));
            } catch (IOException e) {
                log.debug("zone {}: cannot touch {}: {}", origin, copyFile, e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }

    /** dnsjava's transfer handler, keeping what it is given, and refusing past {@code maxRecords}. */
    private static final class BoundedHandler implements ZoneTransferIn.ZoneTransferHandler {
        private final int maxRecords;
        private int count;
        List<Record> axfr;
        List<Change> ixfr;
        private Change delta;
        private boolean adding;

        BoundedHandler(int maxRecords) {
            this.maxRecords = maxRecords;
        }

        @Override
        public void startAXFR() {
            axfr = new ArrayList<>();
        }

        @Override
        public void startIXFR() {
            ixfr = new ArrayList<>();
        }

        @Override
        public void startIXFRDeletes(Record soa) {
            delta = new Change(((SOARecord) soa).getSerial());
            ixfr.add(delta);
            adding = false;
        }

        @Override
        public void startIXFRAdds(Record soa) {
            delta.end = ((SOARecord) soa).getSerial();
            delta.adds.add(soa);
            adding = true;
        }

        @Override
        public void handleRecord(Record r) throws ZoneTransferException {
            if (++count > maxRecords) {
                throw new ZoneTransferException("more than " + maxRecords + " records: refused (the zone's bound)");
            }
            if (ixfr != null) {
                (adding ? delta.adds : delta.deletes).add(r);
            } else {
                axfr.add(r);
            }
        }
    }

    /** One change of an IXFR: from serial {@code start} to {@code end}, the records deleted and added (the new SOA among them). */
    private static final class Change {
        final long start;
        long end;
        final List<Record> deletes = new ArrayList<>();
        final List<Record> adds = new ArrayList<>();

        Change(long start) {
            this.start = start;
        }
    }
}
