package dev.gslb.dns.transfer;

import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.zone.SecondarySettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
 * One secondary zone: pulled from its primaries by IXFR (AXFR the first time, and when IXFR
 * fails), at the SOA's refresh, its retry after a failure, and at once on a primary's NOTIFY; held
 * until its expire has passed without a transfer, then answered SERVFAIL. A transfer that fails,
 * does not parse, breaks a zone rule, runs past its bounds or brings a lower serial changes
 * nothing; the reason is logged. Each copy is kept in the state folder, so a restart serves it
 * before its first refresh. Runs on a virtual thread of its own.
 */
final class SecondaryZone implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SecondaryZone.class);
    /** Before the first copy: how soon a failed first transfer is tried again. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(10);

    /** Bounds on one transfer in: records, and time from connect to the last message. */
    record Limits(int maxRecords, Duration maxTime) {
        static final Limits DEFAULTS = new Limits(ZoneFile.MAX_RECORDS, Duration.ofMinutes(10));
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

    private Instant lastSuccess;
    /** Why the last refresh failed, or null after one that worked. */
    private volatile String lastProblem;
    /** Refreshes that failed, every primary refusing or failing. */
    private final java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();

    /** Transfers taken: whole zones, and IXFR changes. */
    private final java.util.concurrent.atomic.AtomicLong axfrs = new java.util.concurrent.atomic.AtomicLong();

    private final java.util.concurrent.atomic.AtomicLong ixfrs = new java.util.concurrent.atomic.AtomicLong();

    SecondaryZone(
            Name origin,
            SecondarySettings settings,
            TsigKey key,
            Path copyFile,
            Limits limits,
            Clock clock,
            Consumer<Zone> publish) {
        this.origin = origin;
        this.settings = settings;
        this.key = key;
        this.copyFile = copyFile;
        this.limits = limits;
        this.clock = clock;
        this.publish = publish;
        this.held = readCopy();
        this.thread = Thread.ofVirtual().name("secondary " + origin).start(this::run);
    }

    Zone held() {
        return held;
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
        } catch (ZoneException | IOException e) {
            log.warn(
                    "zone {}: the copy in {} does not load ({}); SERVFAIL until a transfer",
                    origin,
                    copyFile,
                    e.getMessage());
            return Zone.placeholder(origin, settings);
        }
    }

    private boolean expiredAt(Zone z, Instant now) {
        return lastSuccess == null
                || now.isAfter(lastSuccess.plusSeconds(z.soa().getExpire()));
    }

    private void run() {
        while (!closed) {
            Duration next;
            try {
                next = refresh() ? Duration.ofSeconds(held.soa().getRefresh()) : retry();
            } catch (RuntimeException e) { // a bug: logged, and tried again at the retry
                log.warn("zone {}: refresh failed: {}", origin, e.toString());
                next = retry();
            }
            Zone z = held;
            if (!z.expired() && expiredAt(z, clock.instant())) {
                log.warn(
                        "zone {}: no transfer for its expire ({} s): answered SERVFAIL until one",
                        origin,
                        z.soa().getExpire());
                held = z.asExpired();
                publish.accept(held);
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
        return lastSuccess == null
                ? FIRST_RETRY
                : Duration.ofSeconds(Math.max(1, held.soa().getRetry()));
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
                if (next != null) {
                    held = next;
                    keep(next);
                    publish.accept(next);
                } else if (held.expired()) { // current again after an expire
                    held = held.heldFrom(settings);
                    publish.accept(held);
                }
                lastProblem = null;
                return true;
            } catch (IOException | ZoneTransferException | ZoneException | RefusedTransfer e) {
                String why = e instanceof java.net.SocketTimeoutException
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

    /** A transfer refused here (bounds, serial), with the reason. */
    static final class RefusedTransfer extends Exception {
        RefusedTransfer(String why) {
            super(why);
        }
    }

    /** The zone after a transfer from {@code primary}, or null when it is current. */
    private Zone transfer(InetSocketAddress primary)
            throws IOException, ZoneTransferException, ZoneException, RefusedTransfer {
        Zone current = held;
        boolean have = lastSuccess != null; // a copy held, current or expired: IXFR from its serial
        ZoneTransferIn x = have
                ? ZoneTransferIn.newIXFR(
                        origin, current.soa().getSerial(), true, primary, key == null ? null : key.tsig())
                : ZoneTransferIn.newAXFR(origin, primary, key == null ? null : key.tsig());
        Duration bound = limits.maxTime();
        if (have && !current.expired()) { // a stuck transfer must not hold a zone past its expire
            Duration left = Duration.between(
                    clock.instant(), lastSuccess.plusSeconds(current.soa().getExpire()));
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
            records = apply(current, h.ixfr);
            kind = "IXFR, " + h.ixfr.size() + " change(s)";
            ixfrs.incrementAndGet();
        } else {
            records = new ArrayList<>(h.axfr);
            records.removeLast(); // the closing SOA
            kind = "AXFR";
            axfrs.incrementAndGet();
        }
        Zone z = ZoneFile.of("transfer of " + origin + " from " + primary, origin, records)
                .heldFrom(settings);
        long serial = z.soa().getSerial();
        if (have && Serial.compare(serial, current.soa().getSerial()) < 0) {
            throw new RefusedTransfer("the primary's serial " + serial + " is lower than ours, "
                    + current.soa().getSerial() + " (RFC 1982): not taken");
        }
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
            for (Record r : d.adds) {
                records.add(r); // the new SOA among them
            }
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
            SOARecord soa = z.soa();
            text.append(soa).append('\n');
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
