package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.site.HealthState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Manual resume: a server a {@code manual-resume} monitor took DOWN stays DOWN, its monitor
 * passing again or not, until it is resumed; the wait survives a restart in its file, and a file
 * that cannot be read is set aside.
 */
class ManualResumeTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration LIMIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    /** A check the test turns to pass or fail. */
    static final class Switch implements Check {
        volatile boolean passing = true;

        @Override
        public CheckResult run(InetAddress address, Duration timeout) {
            return passing ? CheckResult.ok("answers") : CheckResult.fail("refused");
        }
    }

    static HealthTarget target(Check check, boolean manualResume) {
        MonitorSpec web =
                new MonitorSpec("web", check, Duration.ofMillis(20), Duration.ofMillis(10), 1, 1, manualResume);
        return new HealthTarget("vs1", LOOPBACK, "CNC", List.of(web));
    }

    static HealthMonitor monitor(Check check, ManualResume waiting) {
        return new HealthMonitor(List.of(target(check, true)), Clock.systemUTC(), new SimpleMeterRegistry(), waiting);
    }

    static ManualResume.Waiting waitingOf(HealthMonitor m) {
        return m.statuses().getFirst().waiting();
    }

    /** Starts {@code m} with its check passing, and fails it until vs1 waits for resume. */
    static void upThenDown(HealthMonitor m, Switch check) throws InterruptedException {
        m.start();
        Awaits.until("vs1 UP", LIMIT, () -> m.state("vs1") == HealthState.UP);
        check.passing = false;
        Awaits.until("vs1 waiting for resume", LIMIT, () -> waitingOf(m) != null);
    }

    @Test
    void aServerThatWentDownStaysDownWhenItsMonitorPassesAgainUntilResumedThenIsUpAtOnce() throws Exception {
        Switch check = new Switch();
        List<String> told = new CopyOnWriteArrayList<>();
        try (HealthMonitor m = monitor(check, ManualResume.inMemory())) {
            m.onWaitingChange((server, waits) -> told.add(server + " " + waits));
            upThenDown(m, check);
            assertThat(m.state("vs1")).isEqualTo(HealthState.DOWN);
            assertThat(waitingOf(m).monitor()).isEqualTo("web");
            assertThat(waitingOf(m).passedAgain()).as("still failing").isNull();

            check.passing = true;
            Awaits.until(
                    "vs1's monitor passing again", LIMIT, () -> waitingOf(m).passedAgain() != null);
            assertThat(m.statuses().getFirst().monitors().getFirst().state()).isEqualTo(HealthState.UP);
            assertThat(m.state("vs1")).as("its monitor passes, it waits").isEqualTo(HealthState.DOWN);
            assertThat(m.waitingForResume()).containsExactly("vs1");

            assertThat(m.resume("vs1")).isTrue();
            assertThat(m.state("vs1"))
                    .as("its monitor passed again: UP at once")
                    .isEqualTo(HealthState.UP);
            assertThat(waitingOf(m)).isNull();
            assertThat(m.resume("vs1")).as("no longer waiting").isFalse();
            assertThat(m.resume("nobody")).isFalse();
        }
        assertThat(told).containsExactly("vs1 true", "vs1 false");
    }

    @Test
    void resumedWhileStillFailingItComesUpWhenItsMonitorPasses() throws Exception {
        Switch check = new Switch();
        try (HealthMonitor m = monitor(check, ManualResume.inMemory())) {
            upThenDown(m, check);
            assertThat(m.resume("vs1")).isTrue();
            assertThat(m.state("vs1")).as("its monitor still fails").isEqualTo(HealthState.DOWN);
            check.passing = true;
            Awaits.until("vs1 UP by itself", LIMIT, () -> m.state("vs1") == HealthState.UP);
            check.passing = false;
            Awaits.until("vs1 waiting again after a new failure", LIMIT, () -> waitingOf(m) != null);
        }
    }

    @Test
    void aServerThatWasNeverUpDoesNotWait() throws Exception {
        Switch check = new Switch();
        check.passing = false;
        try (HealthMonitor m = monitor(check, ManualResume.inMemory())) {
            m.start();
            Awaits.until("vs1 DOWN", LIMIT, () -> m.state("vs1") == HealthState.DOWN);
            assertThat(waitingOf(m)).as("no failure after an UP").isNull();
            assertThat(m.resume("vs1")).isFalse();
            check.passing = true;
            Awaits.until("vs1 UP by itself", LIMIT, () -> m.state("vs1") == HealthState.UP);
        }
    }

    @Test
    void aMonitorWithoutManualResumeLetsItsServerComeBack() throws Exception {
        Switch check = new Switch();
        try (HealthMonitor m = new HealthMonitor(
                List.of(target(check, false)), Clock.systemUTC(), new SimpleMeterRegistry(), ManualResume.inMemory())) {
            m.start();
            Awaits.until("vs1 UP", LIMIT, () -> m.state("vs1") == HealthState.UP);
            check.passing = false;
            Awaits.until("vs1 DOWN", LIMIT, () -> m.state("vs1") == HealthState.DOWN);
            check.passing = true;
            Awaits.until("vs1 UP again by itself", LIMIT, () -> m.state("vs1") == HealthState.UP);
            assertThat(m.waitingForResume()).isEmpty();
        }
    }

    @Test
    void theWaitSurvivesARestartInAPrivateFile() throws Exception {
        Path file = dir.resolve("waiting-for-resume");
        Switch check = new Switch();
        ManualResume.Waiting before;
        try (HealthMonitor m = monitor(check, ManualResume.keptIn(file))) {
            upThenDown(m, check);
            before = waitingOf(m);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("\"server\" : \"vs1\"", "\"monitor\" : \"web\"");

        check.passing = true;
        try (HealthMonitor m = monitor(check, ManualResume.keptIn(file))) {
            assertThat(m.state("vs1")).as("DOWN from the start").isEqualTo(HealthState.DOWN);
            assertThat(waitingOf(m)).isEqualTo(new ManualResume.Waiting("web", before.since(), null));
            m.start();
            Awaits.until(
                    "vs1's monitor passing after the restart",
                    LIMIT,
                    () -> waitingOf(m).passedAgain() != null);
            assertThat(m.state("vs1")).isEqualTo(HealthState.DOWN);
            assertThat(m.resume("vs1")).isTrue();
            assertThat(m.state("vs1")).isEqualTo(HealthState.UP);
        }
        assertThat(ManualResume.keptIn(file).servers())
                .as("the resume is kept too")
                .isEmpty();
    }

    @Test
    void aWaitEndsWhenTheConfigurationNoLongerAsksForIt() throws Exception {
        Switch check = new Switch();
        List<String> told = new CopyOnWriteArrayList<>();
        try (HealthMonitor m = monitor(check, ManualResume.inMemory())) {
            m.onWaitingChange((server, waits) -> told.add(server + " " + waits));
            upThenDown(m, check);
            check.passing = true;
            m.reconfigure(List.of(target(check, false)));
            assertThat(m.waitingForResume()).isEmpty();
            assertThat(told).containsExactly("vs1 true", "vs1 false");
            Awaits.until("vs1 UP by itself", LIMIT, () -> m.state("vs1") == HealthState.UP);
        }
        Path file = dir.resolve("waiting-for-resume");
        Files.writeString(file, "[{\"server\": \"vs1\", \"monitor\": \"web\", \"since\": \"2025-01-02T03:04:05Z\"}]");
        try (HealthMonitor m = new HealthMonitor(
                List.of(target(check, false)),
                Clock.systemUTC(),
                new SimpleMeterRegistry(),
                ManualResume.keptIn(file))) {
            assertThat(m.waitingForResume())
                    .as("its monitor lost manual-resume")
                    .isEmpty();
            assertThat(m.state("vs1")).isEqualTo(HealthState.UNKNOWN);
        }
    }

    @Test
    void aFileThatCannotBeReadIsSetAsideAndNothingWaits() throws Exception {
        for (String content : List.of(
                "{not json",
                "[{\"server\": \"vs1\", \"monitor\": \"web\"}]",
                "[{\"server\": \"vs1\", \"monitor\": \"web\", \"since\": \"yesterday\"}]")) {
            Path folder = Files.createDirectory(dir.resolve("f" + content.length()));
            Path file = folder.resolve("waiting-for-resume");
            Files.writeString(file, content);
            assertThat(ManualResume.keptIn(file).servers()).as(content).isEmpty();
            assertThat(file).as("set aside").doesNotExist();
            try (var aside = Files.list(folder)) {
                assertThat(aside.toList()).singleElement().satisfies(p -> {
                    assertThat(p.getFileName().toString()).startsWith("waiting-for-resume.corrupt-");
                    assertThat(Files.readString(p)).isEqualTo(content);
                });
            }
        }
    }

    @Test
    void aLinkRefusesAManualResumeMonitor() {
        MonitorSpec gateway =
                new MonitorSpec("gateway", new Switch(), Duration.ofSeconds(1), Duration.ofMillis(500), 1, 1, true);
        assertThatThrownBy(() -> new LinkSpec(
                        "CNC-1", "CNC", null, null, null, null, null, null, List.of(LOOPBACK), List.of(gateway)))
                .hasMessageContaining("monitor gateway has 'manual-resume: true', which only virtual servers take");
    }
}
