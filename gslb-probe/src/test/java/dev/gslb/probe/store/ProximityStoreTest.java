package dev.gslb.probe.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.proximity.RttMargin;
import dev.gslb.topology.Address;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProximityStoreTest {
    @TempDir
    java.nio.file.Path dir;

    static final Address LDNS = Address.parse("61.136.178.229");

    static ProximityTable table(Clock clock) {
        return new ProximityTable(ProximitySettings.DEFAULTS, clock);
    }

    @Test
    void aRestartKeepsTheTable() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        ProximityTable before = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, before)) {
            long now = System.currentTimeMillis();
            before.touch(LDNS);
            before.recordPath(LDNS, Path.of("CNC", 189850, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
            before.recordPath(LDNS, Path.of("TEL", 57209, 10000, 0, ProbeProtocol.TCP, now, "gslb-tel"));
            before.markUnprobeable(Address.parse("198.18.0.2"));
            assertThat(store.flush()).isEqualTo(2);
        }
        ProximityTable after = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, after)) {
            assertThat(after.size()).isEqualTo(2);
            var e = after.get(LDNS);
            assertThat(e.path("CNC").rttMicros()).isEqualTo(189850);
            assertThat(e.path("TEL").rttMicros()).isEqualTo(57209);
            assertThat(e.path("TEL").measuredBy()).isEqualTo("gslb-tel");
            assertThat(e.protocol()).isEqualTo(ProbeProtocol.TCP);
            assertThat(after.get(Address.parse("198.18.0.2")).state().name()).isEqualTo("UNPROBEABLE");
        }
    }

    /**
     * An LDNS's kept data center survives a restart, so the restarted instance answers it as its
     * peer still does, not as a choice made afresh from the same paths would. A row of the layout
     * before it was stored (no byte after the paths) loads with none kept.
     */
    @Test
    void aRestartKeepsTheKeptDataCenterAndReadsRowsWithoutOne() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        long now = System.currentTimeMillis();
        Address ldns = null; // one whose preference, choosing afresh between the two, is TEL
        for (int n = 0; ldns == null; n++) {
            Address a = Address.parse("198.18.7." + n);
            if (RttMargin.preference(a.hi(), a.lo(), "TEL") > RttMargin.preference(a.hi(), a.lo(), "CNC")) {
                ldns = a;
            }
        }
        Address older = Address.parse("198.18.8.1");
        ProximityTable before = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, before)) {
            for (Address a : new Address[] {ldns, older}) {
                before.recordPath(a, Path.of("CNC", 50_000, 10000, 0, ProbeProtocol.TCP, now - 2, "gslb-cnc"));
                before.recordPath(a, Path.of("TEL", 61_000, 10000, 0, ProbeProtocol.TCP, now - 2, "gslb-tel"));
                before.recordPath(a, Path.of("TEL", 41_000, 10000, 0, ProbeProtocol.TCP, now, "gslb-tel"));
            }
            assertThat(before.get(ldns).keptDataCenterName())
                    .as("TEL is 9 ms better: not by the margin")
                    .isEqualTo("CNC");
            store.flush();
        }
        try (var c = DriverManager.getConnection("jdbc:h2:file:" + file, "gslb", "");
                var s = c.prepareStatement("UPDATE ldns SET paths = ? WHERE lo = " + older.lo());
                var r = c.createStatement().executeQuery("SELECT paths FROM ldns WHERE lo = " + older.lo())) {
            r.next();
            byte[] packed = r.getBytes(1);
            s.setBytes(1, java.util.Arrays.copyOf(packed, packed.length - 1)); // as stored before the kept one was
            s.execute();
        }
        ProximityTable after = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, after)) {
            assertThat(after.get(ldns).keptDataCenterName()).isEqualTo("CNC");
            assertThat(after.get(older).keptDataCenterName()).isNull();
            assertThat(after.get(older).path("TEL").rttMicros()).isEqualTo(41_000);
            after.recordPath(ldns, Path.of("TEL", 42_000, 10000, 0, ProbeProtocol.TCP, now + 1000, "gslb-tel"));
            assertThat(after.get(ldns).keptDataCenterName())
                    .as("still within the margin")
                    .isEqualTo("CNC");
            assertThat(after.keptMoves()).isZero();
        }
        ProximityTable off = table(Clock.systemUTC());
        off.rttMargin(RttMargin.OFF);
        try (ProximityStore ignored = new ProximityStore(file, off)) {
            assertThat(off.get(ldns).keptDataCenterName())
                    .as("no margin: none kept")
                    .isNull();
        }
    }

    @Test
    void whatExpiredWhileDownIsDropped() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        Instant then = Instant.parse("2026-01-01T00:00:00Z");
        ProximityTable old = table(Clock.fixed(then, ZoneOffset.UTC));
        try (ProximityStore store = new ProximityStore(file, old)) {
            old.touch(LDNS);
            store.flush();
        }
        ProximityTable later = table(Clock.fixed(then.plus(Duration.ofDays(29)), ZoneOffset.UTC));
        try (ProximityStore ignored = new ProximityStore(file, later)) {
            assertThat(later.size()).isZero();
        }
        ProximityTable again = table(Clock.fixed(then.plus(Duration.ofDays(29)), ZoneOffset.UTC));
        try (ProximityStore ignored = new ProximityStore(file, again)) {
            assertThat(again.size()).as("deleted from the file too").isZero();
        }
    }

    @Test
    void aCorruptFileIsMovedAsideNotOverwritten() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        Files.write(
                dir.resolve("proximity.mv.db"),
                "this is not an H2 database, not at all".repeat(200).getBytes());
        makePrivate(dir.resolve("proximity.mv.db"));
        ProximityTable t = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, t)) {
            assertThat(t.size()).isZero();
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("proximity.mv.db.unreadable-"));
        }
    }

    @Test
    void aNewerSchemaIsMovedAside() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        try (var c = DriverManager.getConnection("jdbc:h2:file:" + file, "gslb", "")) {
            c.createStatement().execute("CREATE TABLE gslb_meta (k VARCHAR(64) PRIMARY KEY, v VARCHAR(256))");
            c.createStatement().execute("INSERT INTO gslb_meta VALUES ('schema_version', '99')");
        }
        makePrivate(dir.resolve("proximity.mv.db"));
        ProximityTable t = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, t)) {
            assertThat(t.size()).isZero();
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.contains(".unreadable-"));
        }
    }

    static void makePrivate(java.nio.file.Path f) throws Exception {
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    /** LDNS 0-11,999 are IPv4; the rest IPv6 under five /64s: the file's key order has six groups of hi. */
    private static Address many(int i) {
        return i < 12_000 ? Address.ofIpv4(0xC6120000 + i) : new Address(0x2001_0db8_0000_0000L + i % 5, i);
    }

    /**
     * A flush writes {@value ProximityStore#CHUNK} rows to a transaction; more changes than the
     * store remembers one by one (a fresh peer's snapshot) are written by a walk of the table, which
     * also deletes the rows of every LDNS gone from it.
     */
    @Test
    void manyChangesAreWrittenInChunksAndBeyondTheBoundByAWalkThatDeletesWhatIsGone() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        long now = System.currentTimeMillis();
        ProximityTable first = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, first)) {
            for (int i = 0; i < 25_000; i++) {
                first.recordPath(many(i), Path.of("CNC", 1000 + i, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
            }
            assertThat(store.flush())
                    .as("each changed LDNS once, in three chunks")
                    .isEqualTo(25_000);
        }
        ProximityTable second = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, second, 100)) {
            store.load();
            assertThat(second.size()).isEqualTo(25_000);
            for (int i = 0; i < 25_000; i += 2) {
                second.remove(many(i));
            }
            second.recordPath(many(1), Path.of("TEL", 7, 10000, 0, ProbeProtocol.TCP, now, "gslb-tel"));
            assertThat(store.flush())
                    .as("past 100 changes: the 12,500 entries left written, the 12,500 gone deleted")
                    .isEqualTo(25_000);
            assertThat(store.flush()).as("nothing changed since").isZero();
        }
        ProximityTable third = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, third)) {
            assertThat(third.size()).isEqualTo(12_500);
            for (int i : new int[] {0, 11_998, 12_000, 24_998}) {
                assertThat(third.get(many(i))).as("LDNS %d removed", i).isNull();
            }
            for (int i : new int[] {11_999, 12_001, 24_999}) {
                assertThat(third.get(many(i)).path("CNC").rttMicros()).isEqualTo(1000 + i);
            }
            assertThat(third.get(many(1)).path("TEL").rttMicros()).isEqualTo(7);
        }
    }

    /**
     * The server answers before the store is read: what the table learnt by then (a probe, a peer's
     * path, a new LDNS) is kept, and a stored path is added only where it is newer.
     */
    @Test
    void aLoadAfterTheStartKeepsWhatTheTableLearntMeanwhile() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        long now = System.currentTimeMillis();
        Address other = Address.parse("198.18.0.9");
        ProximityTable before = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, before)) {
            before.recordPath(LDNS, Path.of("CNC", 189850, 10000, 0, ProbeProtocol.TCP, now - 60_000, "gslb-cnc"));
            before.recordPath(LDNS, Path.of("TEL", 57209, 10000, 0, ProbeProtocol.TCP, now - 60_000, "gslb-tel"));
            before.recordPath(other, Path.of("CNC", 5, 10000, 0, ProbeProtocol.TCP, now - 60_000, "gslb-cnc"));
            assertThat(store.flush()).isEqualTo(2);
        }
        ProximityTable after = table(Clock.systemUTC());
        try (ProximityStore store = ProximityStore.opened(file, after)) {
            assertThat(after.size()).as("not read yet").isZero();
            after.recordPath(LDNS, Path.of("CNC", 1000, 10000, 0, ProbeProtocol.UDP, now, "gslb-cnc"));
            after.recordPath(
                    Address.parse("198.18.0.10"), Path.of("CNC", 6, 10000, 0, ProbeProtocol.UDP, now, "gslb-cnc"));
            assertThat(store.flush())
                    .as("before the read a flush would overwrite rows not read: it waits")
                    .isZero();
            assertThat(store.load()).isEqualTo(2);
            assertThat(store.load()).as("once only").isZero();
            assertThat(after.size()).isEqualTo(3);
            assertThat(after.get(LDNS).path("CNC").rttMicros())
                    .as("measured since the start: newer than the stored one")
                    .isEqualTo(1000);
            assertThat(after.get(LDNS).path("TEL").rttMicros())
                    .as("stored, and new to the entry")
                    .isEqualTo(57209);
            assertThat(after.get(other).path("CNC").rttMicros()).isEqualTo(5);
            assertThat(store.flush()).as("the two LDNS changed since the start").isEqualTo(2);
        }
    }

    /** A stop before the store was read leaves the file as it was: nothing in it is overwritten with less. */
    @Test
    void aStopBeforeTheReadKeepsTheFile() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        long now = System.currentTimeMillis();
        ProximityTable before = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, before)) {
            before.recordPath(LDNS, Path.of("CNC", 189850, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
            assertThat(store.flush()).isEqualTo(1);
        }
        ProximityTable cut = table(Clock.systemUTC());
        try (ProximityStore ignored = ProximityStore.opened(file, cut)) {
            cut.touch(LDNS); // asked before the read: an entry without paths
        }
        ProximityTable after = table(Clock.systemUTC());
        try (ProximityStore ignored = new ProximityStore(file, after)) {
            assertThat(after.get(LDNS).path("CNC").rttMicros()).isEqualTo(189850);
        }
    }

    @Test
    void aBadRowIsSkippedAndCountedAndTheRestLoads() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        ProximityTable before = table(Clock.systemUTC());
        long now = System.currentTimeMillis();
        try (ProximityStore store = new ProximityStore(file, before)) {
            before.recordPath(LDNS, Path.of("CNC", 189850, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
            before.recordPath(
                    Address.parse("198.18.0.3"), Path.of("CNC", 5, 10000, 0, ProbeProtocol.TCP, now, "gslb-cnc"));
            store.flush();
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("proximity.mv.db"))))
                .as("created private")
                .isEqualTo("rw-------");
        try (var c = DriverManager.getConnection("jdbc:h2:file:" + file, "gslb", "")) { // one row's paths garbled
            c.createStatement()
                    .execute("UPDATE ldns SET paths = X'05ff' WHERE lo = "
                            + Address.parse("198.18.0.3").lo());
        }
        ProximityTable after = table(Clock.systemUTC());
        try (ProximityStore store = new ProximityStore(file, after)) {
            assertThat(store.skippedRows()).isEqualTo(1);
            assertThat(after.get(LDNS).path("CNC").rttMicros())
                    .as("the good row")
                    .isEqualTo(189850);
            assertThat(after.get(Address.parse("198.18.0.3"))).isNull();
        }
    }

    @Test
    void aStoreOthersCanReadIsRefusedWithTheFix() throws Exception {
        java.nio.file.Path file = dir.resolve("proximity");
        try (ProximityStore ignored = new ProximityStore(file, table(Clock.systemUTC()))) {
            // created
        }
        Files.setPosixFilePermissions(dir.resolve("proximity.mv.db"), PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> new ProximityStore(file, table(Clock.systemUTC())))
                .hasMessageContaining("rw-r--r--")
                .hasMessageContaining("chmod 600");
    }

    /**
     * H2 makes its files with the umask and, on a fresh store, traced the "no table yet" error to a
     * file readable by all: every file of a fresh store, and of one reopened and moved aside, is 600
     * in a 700 folder, and there is no trace file. An older gslb's trace file is tightened.
     */
    @Test
    void everyFileOfTheStoreIsOwnerOnlyAndNothingIsTraced() throws Exception {
        java.nio.file.Path state = dir.resolve("var");
        java.nio.file.Path file = state.resolve("proximity");
        try (ProximityStore store = new ProximityStore(file, table(Clock.systemUTC()))) {
            store.flush();
        }
        try (ProximityStore ignored = new ProximityStore(file, table(Clock.systemUTC()))) {
            assertThat(modes(state)).containsOnlyKeys("proximity.mv.db").containsValue("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
                .isEqualTo("rwx------");

        Files.writeString(dir.resolve("var/proximity.mv.db"), "not a database");
        Files.setPosixFilePermissions(dir.resolve("var/proximity.mv.db"), PosixFilePermissions.fromString("rw-------"));
        java.nio.file.Path trace = Files.writeString(state.resolve("proximity.trace.db"), "an older gslb's trace");
        Files.setPosixFilePermissions(trace, PosixFilePermissions.fromString("rw-r--r--"));
        try (ProximityStore ignored = new ProximityStore(file, table(Clock.systemUTC()))) {
            assertThat(modes(state))
                    .as("the unreadable file set aside, a new one made, the old trace tightened")
                    .hasSize(3)
                    .allSatisfy((name, mode) -> assertThat(mode).as(name).isEqualTo("rw-------"));
        }
    }

    static java.util.Map<String, String> modes(java.nio.file.Path folder) throws Exception {
        java.util.Map<String, String> modes = new java.util.TreeMap<>();
        try (var files = Files.list(folder)) {
            for (java.nio.file.Path f : files.toList()) {
                modes.put(f.getFileName().toString(), PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
            }
        }
        return modes;
    }
}
