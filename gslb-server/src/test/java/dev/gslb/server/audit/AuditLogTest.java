package dev.gslb.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.api.AuditEntry;
import dev.gslb.api.Role;
import dev.gslb.config.admin.AuditSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log keeps at most files x size, newest last, and reads back by time. */
class AuditLogTest {
    @TempDir
    Path dir;

    private static AuditEntry entry(Instant time, int n) {
        return new AuditEntry(
                time.toString(),
                "alice",
                Role.OPERATOR,
                "127.0.0.1",
                "POST",
                "/ldns/probe",
                "n=" + n,
                null,
                null,
                200,
                null);
    }

    private List<Path> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("audit.log"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void rotationKeepsAtMostFilesTimesSizeAndTheNewestLines() throws Exception {
        AuditSettings settings = new AuditSettings(dir.resolve("audit.log"), AuditSettings.MIN_SIZE, 3);
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        try (AuditLog log = new AuditLog(settings)) {
            for (int i = 0; i < 2000; i++) {
                log.record(entry(now.plusMillis(i), i));
            }
            assertThat(files())
                    .extracting(p -> p.getFileName().toString())
                    .containsExactly("audit.log", "audit.log.1", "audit.log.2");
            for (Path f : files()) {
                assertThat(Files.size(f)).as(f.toString()).isLessThanOrEqualTo(AuditSettings.MIN_SIZE);
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                        .isEqualTo("rw-------");
            }
            List<AuditEntry> kept = log.since(Instant.EPOCH, 10_000);
            assertThat(kept.getLast().target()).isEqualTo("n=1999");
            assertThat(kept.size()).as("only what three files hold").isLessThan(2000);
            assertThat(log.since(now.plusMillis(1990), 10_000))
                    .extracting(AuditEntry::target)
                    .containsExactly(
                            "n=1990", "n=1991", "n=1992", "n=1993", "n=1994", "n=1995", "n=1996", "n=1997", "n=1998",
                            "n=1999");
            assertThat(log.since(Instant.EPOCH, 2))
                    .extracting(AuditEntry::target)
                    .containsExactly("n=1998", "n=1999");
        }
    }

    @Test
    void fewerFilesThanAnEarlierRunLeftAndAnOversizedFieldStayBounded() throws Exception {
        Files.writeString(dir.resolve("audit.log.7"), "left by a run that kept more files\n");
        try (AuditLog log = new AuditLog(new AuditSettings(dir.resolve("audit.log"), AuditSettings.MIN_SIZE, 2))) {
            assertThat(dir.resolve("audit.log.7")).doesNotExist();
            String huge = "x".repeat(100_000) + "\n\u0000";
            log.record(new AuditEntry(
                    Instant.now().toString(), huge, Role.ADMIN, huge, huge, huge, huge, huge, huge, 400, huge));
            assertThat(Files.size(dir.resolve("audit.log"))).isLessThan(AuditSettings.MIN_SIZE);
            assertThat(Files.readAllLines(dir.resolve("audit.log"))).hasSize(1);
            assertThat(log.since(Instant.now().minus(Duration.ofMinutes(1)), 10)
                            .getFirst()
                            .who())
                    .hasSize(AuditLog.FIELD);
        }
    }
}
