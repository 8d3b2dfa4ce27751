package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.site.ServerLoad;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load monitor's logic with a scripted source, polled by hand on a hand clock: gauges averaged
 * over the window, counters as rates, a counter going back, a failure unknown at once and logged
 * once per change, a read that hangs bounded, limits with their hysteresis.
 */
class LoadMonitorTest {
    /** A hand clock: the tests move it a second per poll. */
    final long[] now = {1_000_000};

    final InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Map<String, ServerLoad> heard = new ConcurrentHashMap<>();

    static LoadSpec spec(Duration window, Duration timeout, LoadSource... sources) {
        return new LoadSpec(List.of(sources), Duration.ofSeconds(1), window, timeout);
    }

    LoadMonitor monitor(LoadTarget... targets) {
        LoadMonitor m = new LoadMonitor(List.of(targets), "dc-cnc", clock, registry);
        m.onChange(heard::put);
        return m;
    }

    ServerLoad poll(LoadMonitor m, String server) throws InterruptedException {
        m.pollNow(server);
        now[0] += 1000;
        return heard.get(server);
    }

    double changes(String kind, String to) {
        var c = registry.find("load_changes").tag("kind", kind).tag("to", to).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void gaugesAreAveragedAndCountersBecomeRatesOverTheWindow() throws Exception {
        ScriptedSource s = new ScriptedSource("a", Metric.CONNECTIONS, Metric.BYTES, Metric.CPU)
                .then(Map.of(Metric.CONNECTIONS, 100.0, Metric.BYTES, 0.0, Metric.CPU, 10.0))
                .then(Map.of(Metric.CONNECTIONS, 300.0, Metric.BYTES, 1000.0, Metric.CPU, 30.0))
                .then(Map.of(Metric.CONNECTIONS, 500.0, Metric.BYTES, 3000.0)); // cpu gone from this reading
        try (LoadMonitor m = monitor(
                new LoadTarget("vs-cnc", "dc-cnc", spec(Duration.ofSeconds(2), Duration.ofMillis(500), s), null))) {
            ServerLoad first = poll(m, "vs-cnc");
            assertThat(first.connections()).isEqualTo(100);
            assertThat(first.bytesPerSecond())
                    .as("one reading of a counter is no rate yet")
                    .isEqualTo(-1);
            assertThat(first.measuredBy()).isEqualTo("dc-cnc");
            assertThat(first.memoryPercent()).as("no source reads memory").isEqualTo(-1);
            ServerLoad second = poll(m, "vs-cnc");
            assertThat(second.connections()).isEqualTo(200);
            assertThat(second.bytesPerSecond()).isEqualTo(1000);
            assertThat(second.cpuPercent()).isEqualTo(20.0);
            ServerLoad third = poll(m, "vs-cnc");
            assertThat(third.connections())
                    .as("the first reading left the window")
                    .isEqualTo(400);
            assertThat(third.bytesPerSecond()).isEqualTo(1500);
            assertThat(third.cpuPercent())
                    .as("a gauge the last reading lacks is unknown")
                    .isEqualTo(-1);
            assertThat(m.local("vs-cnc")).isEqualTo(third);
        }
    }

    @Test
    void aCounterGoingBackOrANewEpochGivesNoRateFromThatPair() throws Exception {
        ScriptedSource s = new ScriptedSource("a", Metric.PACKETS)
                .then(Map.of(Metric.PACKETS, 5000.0), Map.of(Metric.PACKETS, 6000.0)) // 1000/s
                .then(Map.of(Metric.PACKETS, 100.0)) // went back: a restart, not -5900/s nor a burst
                .then(Map.of(Metric.PACKETS, 600.0)) // 500/s
                .then(ScriptedSource.reading(Map.of(Metric.PACKETS, 9_000_000.0), 7)); // another epoch
        try (LoadMonitor m =
                monitor(new LoadTarget("vs", "dc-cnc", spec(Duration.ofSeconds(2), Duration.ofMillis(500), s), null))) {
            poll(m, "vs");
            assertThat(poll(m, "vs").packetsPerSecond()).isEqualTo(1000);
            assertThat(poll(m, "vs").packetsPerSecond())
                    .as("the pair that went back is skipped")
                    .isEqualTo(1000);
            assertThat(poll(m, "vs").packetsPerSecond()).isEqualTo(750);
            assertThat(poll(m, "vs").packetsPerSecond())
                    .as("a new epoch is a restart")
                    .isEqualTo(750);
        }
    }

    @Test
    void aFailureIsUnknownAtOnceAndLoggedOncePerChangeOfTheError() throws Exception {
        ScriptedSource s = new ScriptedSource("a", Metric.CONNECTIONS, Metric.BYTES)
                .then(
                        Map.of(Metric.CONNECTIONS, 10.0, Metric.BYTES, 0.0),
                        Map.of(Metric.CONNECTIONS, 10.0, Metric.BYTES, 50.0))
                .then(new IOException("connection refused"), new IOException("connection refused"))
                .then(new IOException("connection refused"), new IOException("HTTP 500"))
                .then(Map.of(Metric.CONNECTIONS, 7.0, Metric.BYTES, 60.0));
        try (LoadMonitor m =
                monitor(new LoadTarget("vs", "dc-cnc", spec(Duration.ofSeconds(3), Duration.ofMillis(500), s), null))) {
            poll(m, "vs");
            assertThat(poll(m, "vs").bytesPerSecond()).isEqualTo(50);
            ServerLoad failed = poll(m, "vs");
            assertThat(failed.connections())
                    .as("unknown at once, not the window's average")
                    .isEqualTo(-1);
            assertThat(failed.bytesPerSecond()).as("never zero").isEqualTo(-1);
            poll(m, "vs");
            poll(m, "vs");
            assertThat(changes("source", "unknown"))
                    .as("three equal errors: one line")
                    .isEqualTo(1);
            poll(m, "vs");
            assertThat(changes("source", "unknown"))
                    .as("another error: another line")
                    .isEqualTo(2);
            ServerLoad back = poll(m, "vs");
            assertThat(changes("source", "readable")).isEqualTo(1);
            assertThat(back.connections()).isEqualTo(7);
            assertThat(back.bytesPerSecond())
                    .as("a rate needs two readings after the failure")
                    .isEqualTo(-1);
        }
    }

    @Test
    void garbageIsUnknownNotALoad() throws Exception {
        ScriptedSource s =
                new ScriptedSource("a", Metric.CPU).then(Map.of(Metric.CPU, 40.0), Map.of(Metric.CPU, 250.0));
        try (LoadMonitor m =
                monitor(new LoadTarget("vs", "dc-cnc", spec(Duration.ofSeconds(3), Duration.ofMillis(500), s), null))) {
            assertThat(poll(m, "vs").cpuPercent()).isEqualTo(40.0);
            assertThat(poll(m, "vs").cpuPercent()).isEqualTo(-1);
            assertThat(changes("source", "unknown")).isEqualTo(1);
        }
    }

    @Test
    @Timeout(60) // a guard only: unbounded, the poll below would never return
    void aReadThatHangsIsBoundedAndNotStartedAgainWhileItHangs() throws Exception {
        ScriptedSource slow = new ScriptedSource("slow", Metric.CONNECTIONS)
                .then(Map.of(Metric.CONNECTIONS, 3.0), ScriptedSource.HANG, Map.of(Metric.CONNECTIONS, 4.0));
        ScriptedSource other = new ScriptedSource("other", Metric.CPU)
                .then(Map.of(Metric.CPU, 5.0), Map.of(Metric.CPU, 6.0), Map.of(Metric.CPU, 7.0))
                .then(Map.of(Metric.CPU, 8.0));
        try (LoadMonitor m = monitor(new LoadTarget(
                "vs", "dc-cnc", spec(Duration.ofSeconds(1), Duration.ofMillis(200), slow, other), null))) {
            assertThat(poll(m, "vs").connections()).isEqualTo(3);
            ServerLoad hung = poll(m, "vs");
            assertThat(hung.connections()).as("the hanging source is unknown").isEqualTo(-1);
            assertThat(hung.cpuPercent())
                    .as("the other source is read all the same")
                    .isEqualTo(6.0);
            ServerLoad still = poll(m, "vs");
            assertThat(still.connections())
                    .as("not read again while its last read hangs")
                    .isEqualTo(-1);
            assertThat(still.cpuPercent()).isEqualTo(7.0);
            assertThat(changes("source", "unknown"))
                    .as("timed out, then still hanging")
                    .isEqualTo(2);
            slow.release();
            ServerLoad back;
            do { // the released read ends on its own thread; the next poll reads again
                back = poll(m, "vs");
            } while (back.connections() < 0);
            assertThat(back.connections()).isEqualTo(4);
        }
    }

    @Test
    void limitsSetTheServerAsideUntilEveryMetricIsUnderResume() throws Exception {
        ScriptedSource s = new ScriptedSource("a", Metric.CONNECTIONS)
                .then(Map.of(Metric.CONNECTIONS, 4900.0), Map.of(Metric.CONNECTIONS, 5200.0))
                .then(Map.of(Metric.CONNECTIONS, 4600.0), Map.of(Metric.CONNECTIONS, 4400.0));
        ServerLimits limits = new ServerLimits(5000L, null, null, null, 90);
        try (LoadMonitor m = monitor(
                new LoadTarget("vs-cnc", "dc-cnc", spec(Duration.ofSeconds(1), Duration.ofMillis(500), s), limits))) {
            assertThat(poll(m, "vs-cnc").overLimitReason()).isNull();
            assertThat(poll(m, "vs-cnc").overLimitReason()).isEqualTo("vs-cnc over limit: connections 5200 > 5000");
            assertThat(poll(m, "vs-cnc").overLimitReason())
                    .as("under the limit, above resume: still aside")
                    .isEqualTo("vs-cnc over limit: connections 4600 > resume 4500");
            assertThat(poll(m, "vs-cnc").overLimitReason()).isNull();
            assertThat(changes("limit", "over")).isEqualTo(1);
            assertThat(changes("limit", "under")).isEqualTo(1);
        }
    }

    @Test
    void onlyServersOfThisDataCenterArePolledAndAReloadFollowsTheConfiguration() throws Exception {
        ScriptedSource own = new ScriptedSource("own", Metric.CONNECTIONS)
                .then(Map.of(Metric.CONNECTIONS, 10.0), Map.of(Metric.CONNECTIONS, 30.0));
        ScriptedSource far = new ScriptedSource("far", Metric.CONNECTIONS);
        LoadSpec ownSpec = spec(Duration.ofSeconds(2), Duration.ofMillis(500), own);
        try (LoadMonitor m = monitor(
                new LoadTarget("vs-cnc", "dc-cnc", ownSpec, null),
                new LoadTarget("vs-tel", "dc-tel", spec(Duration.ofSeconds(2), Duration.ofMillis(500), far), null))) {
            assertThat(m.polled()).containsExactly("vs-cnc");
            assertThat(m.target("vs-tel").dataCenter())
                    .as("known, to check who may send it")
                    .isEqualTo("dc-tel");
            poll(m, "vs-cnc");
            ScriptedSource reparsed =
                    new ScriptedSource("own", Metric.CONNECTIONS); // the same load: as a reload reads it
            ServerLimits limits = new ServerLimits(100L, null, null, null, 90);
            assertThat(m.reconfigure(List.of(new LoadTarget(
                            "vs-cnc",
                            "dc-cnc",
                            spec(Duration.ofSeconds(2), Duration.ofMillis(500), reparsed),
                            limits))))
                    .as("an unchanged load keeps its poller")
                    .isZero();
            assertThat(reparsed.closed)
                    .as("the new copy of an unchanged source is not used")
                    .isTrue();
            assertThat(poll(m, "vs-cnc").connections()).as("the window kept").isEqualTo(20);
            assertThat(m.target("vs-tel")).isNull();
            assertThat(m.reconfigure(List.of())).isEqualTo(1);
            assertThat(heard.get("vs-cnc")).as("no longer polled: unknown").isEqualTo(ServerLoad.UNKNOWN);
            assertThat(own.closed).isTrue();
            assertThat(m.polled()).isEmpty();
        }
    }
}
