package dev.gslb.probe.store;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the proximity table across restarts in an embedded H2 file, written behind: changed
 * LDNS are collected and written in one transaction every flush interval (default 5 s) and on
 * shutdown, so a kill -9 loses at most the last interval. On start the file is read back, less
 * what expired while the server was down. A file that is corrupt or of a newer schema is moved
 * aside with a clear log line, never silently overwritten; so is one of an older schema.
 */
public final class ProximityStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProximityStore.class);
    static final int SCHEMA_VERSION = 2;

    private final java.nio.file.Path file;
    private final ProximityTable table;
    /**
     * Rows written or deleted per transaction: a flush of millions (a fresh peer's snapshot of
     * 3,000,000 LDNS) holds H2's uncommitted rows of one chunk, not of all (in one transaction it
     * took 20 s and a gigabyte of heap, and a full collection of 0.9 s).
     */
    static final int CHUNK = 10_000;
    /** Changed LDNS remembered one by one up to this many (about 6 MB); beyond it, the next flush writes the whole table. */
    static final int DIRTY_MAX = 100_000;
    /**
     * The rows' order in the file (its primary key, signed): chunks written in it touch their own
     * part of H2's tree; in the table's (hash) order each commit rewrote pages of the whole tree.
     */
    private static final java.util.Comparator<Address> KEY_ORDER =
            java.util.Comparator.comparingLong(Address::hi).thenComparingLong(Address::lo);

    private final int dirtyMax;
    /** Changed LDNS since the last flush. */
    private final Set<Address> dirty = ConcurrentHashMap.newKeySet();
    /** More changed than {@link #dirtyMax}: the next flush writes every entry and deletes every row not in the table. */
    private volatile boolean everything;

    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("proximity-flush").factory());
    private Connection db;
    private volatile int skipped;
    /**
     * Whether {@link #load} is over (to the end, or failed): until then the file holds rows the
     * table has not read, which a flush would overwrite with less, so flushes wait (under this).
     */
    private boolean loaded;
    /** Set by {@link #close}: a load still reading stops at the next row. */
    private volatile boolean closing;

    /** Opens (or creates) {@code file} (without H2's ".mv.db" suffix) and loads it into {@code table}. */
    public ProximityStore(java.nio.file.Path file, ProximityTable table) throws SQLException {
        this(file, table, DIRTY_MAX);
        load();
    }

    /**
     * Opens (or creates) {@code file}; {@link #load} reads it. The server answers first and loads
     * after: 3,000,000 stored LDNS took 7 s to read, 1,000,000 (the default bound) over 2 s, and
     * until they are in, an LDNS is answered as a new one would be.
     */
    public static ProximityStore opened(java.nio.file.Path file, ProximityTable table) throws SQLException {
        return new ProximityStore(file, table, DIRTY_MAX);
    }

    /** Not loaded, with at most {@code dirtyMax} changed LDNS remembered one by one (a test's smaller bound). */
    ProximityStore(java.nio.file.Path file, ProximityTable table, int dirtyMax) throws SQLException {
        this.file = file.toAbsolutePath();
        this.table = table;
        this.dirtyMax = dirtyMax;
        this.db = open();
        table.onChange(this::changed); // before the load: what changes while it reads is written too
    }

    /** Takes no lock: a query's thread calls it when it touches an LDNS. */
    private void changed(Address key) {
        if (everything) {
            return;
        }
        dirty.add(key);
        if (dirty.size() > dirtyMax) {
            everything = true; // the next flush empties the set and walks the table instead
        }
    }

    public void startFlushing(Duration interval) {
        flusher.scheduleWithFixedDelay(
                this::flushQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private java.nio.file.Path dbFile() {
        return file.resolveSibling(file.getFileName() + ".mv.db");
    }

    private Connection open() throws SQLException {
        if (file.toString().contains(";")) { // H2 reads settings after a ';' in its URL
            throw new SQLException(
                    "proximity store " + file + ": a path with ';' is refused (H2 would read the rest as settings)");
        }
        try {
            StateFile.requirePrivate(dbFile());
        } catch (IOException e) {
            throw new SQLException("proximity store: " + e.getMessage());
        }
        tightenOldFiles();
        try {
            Connection c = connect();
            Integer version = schemaVersion(c);
            if (version != null && version != SCHEMA_VERSION) {
                c.close();
                moveAside("it has schema version " + version + ", this server reads " + SCHEMA_VERSION + " ("
                        + (version > SCHEMA_VERSION
                                ? "written by a newer gslb?"
                                : "an older layout; paths are measured again")
                        + ")");
                return create(connect());
            }
            return create(c);
        } catch (SQLException e) {
            if (e.getErrorCode() == 90020) { // open in another process
                throw new SQLException(
                        "proximity store " + dbFile() + " is in use by another process (another gslb"
                                + " serve with the same state folder?): stop it, or give this one its own serve --state-dir",
                        e);
            }
            if (empty(dbFile())) { // nothing to move aside: what failed is not the file's content
                throw new SQLException(
                        "proximity store " + dbFile() + " cannot be opened: "
                                + e.getMessage().lines().findFirst().orElse(""),
                        e);
            }
            moveAside(
                    "it cannot be opened: " + e.getMessage().lines().findFirst().orElse(""));
            return create(connect());
        }
    }

    /**
     * H2 makes its file with the process's umask (644 as a rule): it is made empty, mode 600,
     * first, and H2 writes into it. H2's trace file is off: it would hold errors, readable by all.
     */
    private Connection connect() throws SQLException {
        try {
            StateFile.createEmpty(dbFile());
        } catch (IOException e) {
            throw new SQLException("proximity store " + dbFile() + " cannot be created: " + e.getMessage(), e);
        }
        java.util.Properties settings = new java.util.Properties();
        settings.setProperty("user", "gslb");
        settings.setProperty("password", "");
        settings.setProperty("DB_CLOSE_ON_EXIT", "FALSE");
        settings.setProperty("TRACE_LEVEL_FILE", "0");
        return DriverManager.getConnection("jdbc:h2:file:" + file, settings);
    }

    private static boolean empty(java.nio.file.Path f) {
        try {
            return !Files.exists(f) || Files.size(f) == 0;
        } catch (IOException e) {
            return true;
        }
    }

    /** What an older gslb left beside the store readable by all (its H2 trace file). */
    private void tightenOldFiles() {
        String prefix = file.getFileName() + ".";
        if (!Files.isDirectory(file.getParent())) {
            return;
        }
        try (var beside = Files.list(file.getParent())) {
            for (java.nio.file.Path f : beside.filter(
                            f -> f.getFileName().toString().startsWith(prefix))
                    .toList()) {
                StateFile.tighten(f);
            }
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("proximity store {}: cannot make the files beside it private: {}", dbFile(), e.toString());
        }
    }

    private void moveAside(String why) throws SQLException {
        java.nio.file.Path aside = dbFile().resolveSibling(dbFile().getFileName() + ".unreadable-"
                + Instant.now().toString().replace(':', '-'));
        try {
            Files.move(dbFile(), aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new SQLException("proximity store " + dbFile() + " is unusable (" + why
                    + ") and cannot be moved aside: " + e.getMessage());
        }
        log.error(
                "proximity store {} is not used: {}. It was moved to {}; starting with an empty table.",
                dbFile(),
                why,
                aside);
    }

    private static Integer schemaVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT v FROM INFORMATION_SCHEMA.TABLES t, gslb_meta m "
                        + "WHERE t.TABLE_NAME = 'GSLB_META' AND m.k = 'schema_version'")) {
            return r.next() ? Integer.parseInt(r.getString(1)) : null;
        } catch (SQLException e) {
            return null; // a new file: no tables yet
        }
    }

    private static Connection create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS gslb_meta (k VARCHAR(64) PRIMARY KEY, v VARCHAR(256))");
            s.execute("MERGE INTO gslb_meta KEY (k) VALUES ('schema_version', '" + SCHEMA_VERSION + "')");
            // One row per LDNS, its paths packed in one column: one write per changed LDNS.
            s.execute("CREATE TABLE IF NOT EXISTS ldns (hi BIGINT, lo BIGINT, state TINYINT, protocol TINYINT, "
                    + "retry_at BIGINT, last_used BIGINT, paths VARBINARY, PRIMARY KEY (hi, lo))");
        }
        c.setAutoCommit(false);
        c.commit();
        return c;
    }

    /**
     * Reads the file into the table, skipping LDNS inactive past their TTL. A row that cannot be
     * read is skipped, counted and deleted at the next flush: one bad row never stops a start. An
     * LDNS the table already holds (asked, probed or sent by a peer since the start) keeps its entry
     * and gains the stored paths newer than its own. Flushes wait for it; a second call does nothing.
     */
    public synchronized int load() throws SQLException {
        if (loaded || db == null) {
            return 0;
        }
        try {
            return read();
        } catch (SQLException | RuntimeException e) {
            loaded = true; // what was read stays; flushes go on, and the rows not read go at the next walk
            throw e;
        }
    }

    /** {@link #load}'s reading: how many LDNS went into the table. */
    private int read() throws SQLException {
        long start = System.nanoTime();
        long now = table.clock().millis();
        long inactiveCutoff = now - table.settings().inactiveTtl().toMillis();
        int restored = 0;
        int expired = 0;
        int over = 0;
        try (Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT hi, lo, state, protocol, retry_at, last_used, paths FROM ldns")) {
            while (!closing && r.next()) {
                Address key = new Address(r.getLong(1), r.getLong(2));
                try {
                    long lastUsed = r.getLong(6);
                    if (lastUsed < inactiveCutoff) {
                        expired++;
                        changed(key); // deleted at the next flush
                        continue;
                    }
                    int proto = r.getByte(4);
                    LdnsEntry e = unpack(
                            r.getBytes(7),
                            LdnsEntry.State.values()[r.getByte(3)],
                            proto < 0 ? null : ProbeProtocol.values()[proto],
                            r.getLong(5),
                            lastUsed);
                    if (table.restore(key, e)) {
                        restored++;
                    } else {
                        over++;
                    }
                } catch (SQLException | RuntimeException bad) {
                    skipped++;
                    changed(key); // not in the table: deleted at the next flush
                    if (skipped <= 3) {
                        log.warn(
                                "proximity store {}: LDNS {} skipped, its row is unreadable: {}",
                                dbFile(),
                                key,
                                bad.getMessage());
                    }
                }
            }
        }
        if (closing) {
            log.info(
                    "proximity store {}: {} LDNS read when the server stopped; the file is kept as it was",
                    dbFile(),
                    restored);
            return restored;
        }
        this.loaded = true;
        log.info(
                "proximity store {}: {} LDNS loaded in {} ms, {} expired while down, {} unreadable rows skipped{}",
                dbFile(),
                restored,
                (System.nanoTime() - start) / 1_000_000,
                expired,
                skipped,
                over == 0 ? "" : ", " + over + " over probe.max-ldns left out");
        return restored;
    }

    /** Rows that could not be read at start (and were dropped). */
    public int skippedRows() {
        return skipped;
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (SQLException | RuntimeException e) {
            log.warn("proximity store flush failed (retried next interval): {}", e.toString());
        }
    }

    /**
     * Writes every LDNS changed since the last flush, {@value #CHUNK} to a transaction; returns
     * how many rows were written or deleted. What a failed chunk and those after it held is tried
     * again at the next flush.
     */
    public synchronized int flush() throws SQLException {
        if (!loaded || db == null) {
            return 0; // not read yet (or a stop cut the read short: the file stays as it was), or closed
        }
        if (everything) {
            everything = false; // first: what changes from here on is remembered again
            dirty.clear(); // then: the walk starts after this, and reads each entry as it is by then
            try {
                return writeAll();
            } catch (Throwable e) {
                everything = true; // first: a failed rollback must not lose the retry
                rollback(e);
                throw e;
            }
        }
        List<Address> keys = new ArrayList<>(dirty);
        if (keys.isEmpty()) {
            return 0;
        }
        keys.forEach(dirty::remove);
        keys.sort(KEY_ORDER);
        int done = 0;
        try (Rows rows = new Rows()) {
            for (Address k : keys) {
                rows.writeCurrent(k);
                done = rows.committed();
            }
            rows.commit();
            return rows.committed();
        } catch (Throwable e) {
            keys.subList(done, keys.size()).forEach(this::changed); // try again next time, whatever the rollback does
            rollback(e);
            throw e;
        }
    }

    private void rollback(Throwable cause) {
        try {
            db.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Every entry of the table in the file's key order, then a delete of every row whose LDNS is
     * gone, a chunk at a time.
     */
    private int writeAll() throws SQLException {
        // The keys alone, sorted: those with hi 0 (IPv4, as nearly every LDNS is) in a long[], 8
        // bytes an LDNS; the others as addresses. Each entry is read again as it is written.
        long[] v4 = new long[table.size()];
        int n = 0;
        List<Address> v6 = new ArrayList<>();
        for (Map.Entry<Address, LdnsEntry> e : table.entries()) {
            Address k = e.getKey();
            if (k.hi() != 0) {
                v6.add(k);
            } else {
                if (n == v4.length) {
                    v4 = java.util.Arrays.copyOf(v4, n + n / 2 + 16);
                }
                v4[n++] = k.lo();
            }
        }
        java.util.Arrays.sort(v4, 0, n);
        v6.sort(KEY_ORDER);
        try (Rows rows = new Rows()) {
            int below = 0; // IPv6 keys whose hi is negative come before hi 0, the rest after
            for (; below < v6.size() && v6.get(below).hi() < 0; below++) {
                rows.writeCurrent(v6.get(below));
            }
            for (int i = 0; i < n; i++) {
                rows.writeCurrent(new Address(0, v4[i]));
            }
            for (Address k : v6.subList(below, v6.size())) {
                rows.writeCurrent(k);
            }
            rows.commit();
            deleteGone(rows);
            return rows.committed();
        }
    }

    /**
     * Deletes the rows of LDNS not in the table, reading the file a page at a time in key order.
     * Each query is one the primary key's index answers: the rest of one {@code hi}, or what comes
     * after it (an OR of the two made H2 scan the whole table for every page).
     */
    private void deleteGone(Rows rows) throws SQLException {
        String select = "SELECT hi, lo FROM ldns ";
        String page = " ORDER BY hi, lo LIMIT " + CHUNK;
        try (PreparedStatement first = db.prepareStatement(select + page);
                PreparedStatement sameHi = db.prepareStatement(select + "WHERE hi = ? AND lo > ?" + page);
                PreparedStatement afterHi = db.prepareStatement(select + "WHERE hi > ?" + page)) {
            PreparedStatement next = first;
            long[] last = new long[2];
            while (true) {
                int read = 0;
                try (ResultSet r = next.executeQuery()) {
                    while (r.next()) {
                        read++;
                        last[0] = r.getLong(1);
                        last[1] = r.getLong(2);
                        if (table.get(last[0], last[1]) == null) {
                            rows.write(new Address(last[0], last[1]), null);
                        }
                    }
                }
                rows.commit();
                if (read == CHUNK) {
                    next = sameHi; // more may share the last row's hi
                } else if (next == sameHi) {
                    next = afterHi; // that hi is done
                } else {
                    return; // a page of everything after a point, not full: the end
                }
                next.setLong(1, last[0]);
                if (next == sameHi) {
                    next.setLong(2, last[1]);
                }
            }
        }
    }

    /** Rows upserted or deleted in batches, committed by the caller a chunk at a time. */
    private final class Rows implements AutoCloseable {
        private final PreparedStatement upsert;
        private final PreparedStatement delete;
        private int pending;
        private int committed;

        Rows() throws SQLException {
            upsert = db.prepareStatement("MERGE INTO ldns KEY (hi, lo) VALUES (?, ?, ?, ?, ?, ?, ?)");
            try {
                delete = db.prepareStatement("DELETE FROM ldns WHERE hi = ? AND lo = ?");
            } catch (SQLException e) {
                upsert.close();
                throw e;
            }
        }

        /** {@code e}'s row for {@code k}, or a delete of it when {@code e} is null. */
        void write(Address k, LdnsEntry e) throws SQLException {
            pending++;
            if (e == null) {
                delete.setLong(1, k.hi());
                delete.setLong(2, k.lo());
                delete.addBatch();
                return;
            }
            upsert.setLong(1, k.hi());
            upsert.setLong(2, k.lo());
            upsert.setByte(3, (byte) e.state().ordinal());
            upsert.setByte(4, (byte) (e.protocol() == null ? -1 : e.protocol().ordinal()));
            upsert.setLong(5, e.retryAt());
            upsert.setLong(6, e.lastUsed());
            upsert.setBytes(7, pack(e));
            upsert.addBatch();
        }

        /** The table's entry of {@code k} as it is now (a delete when it is gone), committed a chunk at a time. */
        void writeCurrent(Address k) throws SQLException {
            write(k, table.get(k));
            if (pending == CHUNK) {
                commit();
            }
        }

        int committed() {
            return committed;
        }

        void commit() throws SQLException {
            if (pending == 0) {
                return;
            }
            delete.executeBatch();
            upsert.executeBatch();
            db.commit();
            committed += pending;
            pending = 0;
        }

        @Override
        public void close() throws SQLException {
            try {
                upsert.close();
            } finally {
                delete.close();
            }
        }
    }

    /**
     * The paths of {@code e}, then the index of its kept data center's path + 1 (0: none kept). A
     * reader of the layout before the kept data center was stored stops after the paths, and a row
     * of that layout has no byte after them: either way no schema change.
     */
    static byte[] pack(LdnsEntry e) {
        Path[] paths = e.paths();
        try (var bytes = new java.io.ByteArrayOutputStream();
                var out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(paths.length);
            for (Path p : paths) {
                out.writeUTF(p.dataCenter());
                out.writeInt(p.rttMicros());
                out.writeShort(p.completion());
                out.writeByte(p.hops());
                out.writeByte(p.protocol().ordinal());
                out.writeLong(p.measuredAt());
                out.writeUTF(p.measuredBy());
            }
            String kept = e.keptDataCenterName();
            out.writeByte(kept == null ? 0 : e.pathIndex(kept) + 1);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException impossible) { // in memory
            throw new IllegalStateException(impossible);
        }
    }

    /** A stored row's entry: its paths and kept data center ({@link #pack}) and the row's other columns. */
    static LdnsEntry unpack(byte[] packed, LdnsEntry.State state, ProbeProtocol protocol, long retryAt, long lastUsed)
            throws SQLException {
        if (packed == null) {
            return LdnsEntry.of(new Path[0], state, protocol, retryAt, lastUsed);
        }
        try (var in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(packed))) {
            Path[] paths = new Path[in.readUnsignedByte()];
            for (int i = 0; i < paths.length; i++) {
                paths[i] = Path.of(
                        in.readUTF(),
                        in.readInt(),
                        in.readShort(),
                        in.readByte(),
                        ProbeProtocol.values()[in.readByte()],
                        in.readLong(),
                        in.readUTF());
            }
            int kept = in.available() > 0 ? in.readUnsignedByte() - 1 : -1;
            if (kept >= paths.length) {
                throw new SQLException("its kept data center is path " + (kept + 1) + " of " + paths.length);
            }
            return LdnsEntry.of(paths, kept, state, protocol, retryAt, lastUsed);
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            throw new SQLException("a stored path record is unreadable: " + e);
        }
    }

    @Override
    public void close() throws SQLException {
        closing = true; // a load under way stops, and the monitor is free for the last flush
        closeAfterLoad();
    }

    private synchronized void closeAfterLoad() throws SQLException {
        flusher.shutdownNow();
        if (db != null) {
            flush();
            db.close();
            db = null;
        }
    }
}
