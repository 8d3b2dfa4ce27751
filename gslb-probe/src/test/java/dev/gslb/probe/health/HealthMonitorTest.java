package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.gslb.probe.Awaits;
import dev.gslb.site.HealthState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Monitors against real endpoints: a TCP port, an HTTP server, an external program. */
class HealthMonitorTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration FAST = Duration.ofMillis(100);

    @TempDir
    Path dir;

    static HealthMonitor monitor(SimpleMeterRegistry registry, Check check, int up, int down) {
        return monitor(registry, new MonitorSpec("m", check, FAST, Duration.ofMillis(50), up, down));
    }

    static HealthMonitor monitor(SimpleMeterRegistry registry, MonitorSpec spec) {
        return new HealthMonitor(
                List.of(new HealthTarget("vs1", LOOPBACK, "CNC", List.of(spec))), Clock.systemUTC(), registry);
    }

    @Test
    void startsUnknownThenFollowsTheTargetWithHysteresis() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ServerSocket listener = new ServerSocket(0, 50, LOOPBACK);
        int port = listener.getLocalPort();
        Thread.ofVirtual().start(() -> {
            while (true) {
                try (var s = listener.accept()) {
                    // accept and close
                } catch (Exception e) {
                    return;
                }
            }
        });
        try (HealthMonitor m = monitor(registry, new TcpCheck(port), 2, 3)) {
            assertThat(m.state("vs1"))
                    .as("nothing is up before a check says so")
                    .isEqualTo(HealthState.UNKNOWN);
            m.start();
            Awaits.until("vs1 UP", Duration.ofSeconds(5), () -> m.state("vs1") == HealthState.UP);
            assertThat(m.state("vs1")).isEqualTo(HealthState.UP);
            listener.close();
            Awaits.until("vs1 DOWN", Duration.ofSeconds(5), () -> m.state("vs1") == HealthState.DOWN);
            assertThat(m.state("vs1")).isEqualTo(HealthState.DOWN);
            assertThat(m.statuses().getFirst().monitors().getFirst().failures()).isGreaterThanOrEqualTo(3);
            assertThat(m.statuses().getFirst().reason()).contains("tcp " + port);
        }
        assertThat(registry.get("health_state_changes")
                        .tag("to", "down")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void aFlappingTargetDoesNotFlapTheState() throws Exception {
        Path counter = dir.resolve("n");
        Files.writeString(counter, "0");
        Path script = dir.resolve("flap.sh");
        Files.writeString(
                script, "#!/bin/sh\nn=$(cat " + counter + ")\necho $((n+1)) > " + counter + "\nexit $((n % 2))\n");
        script.toFile().setExecutable(true);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // a run of the script may take far over 50 ms on a busy host: a timeout would be a failure of its own
        Duration slowest = Duration.ofMillis(500);
        MonitorSpec spec = new MonitorSpec("m", new ExternalCheck(List.of("flap.sh"), script), slowest, slowest, 2, 2);
        try (HealthMonitor m = monitor(registry, spec)) {
            m.start();
            Awaits.until("eight runs of the script", Duration.ofSeconds(30), () -> readQuietly(counter) >= 8);
            assertThat(m.state("vs1"))
                    .as("first check passed, no two failures in a row since")
                    .isEqualTo(HealthState.UP);
        }
        assertThat(registry.get("health_state_changes").counters()).hasSize(1);
        assertThat(registry.get("health_state_changes")
                        .tag("to", "up")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    static int readQuietly(Path p) {
        try {
            return Integer.parseInt(Files.readString(p).trim());
        } catch (Exception e) {
            return 0; // the script is rewriting it
        }
    }

    @Test
    void httpContentCheckNeedsStatusAndBody() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress(LOOPBACK, 0), 10);
        http.createContext("/ok", x -> {
            byte[] b = "service OK".getBytes();
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        http.createContext("/sick", x -> {
            x.sendResponseHeaders(503, -1);
            x.close();
        });
        http.start();
        try {
            int port = http.getAddress().getPort();
            Duration t = Duration.ofSeconds(1);
            assertThat(new HttpCheck(false, port, "/ok", null, 200, "OK")
                            .run(LOOPBACK, t)
                            .ok())
                    .isTrue();
            assertThat(new HttpCheck(false, port, "/ok", null, 200, "healthy")
                            .run(LOOPBACK, t)
                            .reason())
                    .contains("lacks");
            assertThat(new HttpCheck(false, port, "/sick", null, 200, null)
                            .run(LOOPBACK, t)
                            .reason())
                    .contains("status 503");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aServerWithoutMonitorsStaysUnknown() {
        HealthMonitor m = new HealthMonitor(
                List.of(new HealthTarget("vs9", LOOPBACK, "TEL", List.of())),
                Clock.systemUTC(),
                new SimpleMeterRegistry());
        m.start();
        assertThat(m.state("vs9")).isEqualTo(HealthState.UNKNOWN);
        assertThat(m.statuses().getFirst().reason()).isEqualTo("no monitors");
        m.close();
    }
}
