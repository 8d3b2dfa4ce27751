package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.gslb.probe.Awaits;
import dev.gslb.settings.HostPort;
import dev.gslb.site.DataCenter;
import dev.gslb.site.HealthState;
import dev.gslb.site.VirtualServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A server with a translation is checked there, by real monitors against loopback listeners, while
 * its public address (where nothing listens) stays what it is answered with.
 */
class TranslationTest {
    static final InetAddress PUBLIC = InetAddress.ofLiteral("127.0.0.2");
    static final InetAddress INTERNAL = InetAddress.ofLiteral("127.0.0.3");
    static final Duration LIMIT = Duration.ofSeconds(10);

    static MonitorSpec fast(Check check) {
        return new MonitorSpec("m", check, Duration.ofMillis(100), Duration.ofMillis(50), 1, 1);
    }

    static HealthTarget target(MonitorSpec spec, HostPort translation) {
        return new HealthTarget(new VirtualServer("web", PUBLIC, new DataCenter("CNC")), List.of(spec), translation);
    }

    static ServerSocket accepting(InetAddress at) throws Exception {
        ServerSocket listener = new ServerSocket(0, 50, at);
        Thread.ofVirtual().start(() -> {
            while (true) {
                try (var s = listener.accept()) {
                    // accept and close
                } catch (Exception e) {
                    return;
                }
            }
        });
        return listener;
    }

    /** A port nothing listens on at {@code at}: bound, then closed. */
    static int closedPort(InetAddress at) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, at)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aTcpMonitorChecksTheTranslationAddressAndPortNotThePublicOne() throws Exception {
        ServerSocket internal = accepting(INTERNAL);
        int monitorPort = closedPort(PUBLIC); // the monitor's own port, closed on the public address
        MonitorSpec tcp = fast(new TcpCheck(monitorPort));
        HostPort translation = new HostPort(INTERNAL, internal.getLocalPort());
        try (HealthMonitor plain =
                        new HealthMonitor(List.of(target(tcp, null)), Clock.systemUTC(), new SimpleMeterRegistry());
                HealthMonitor translated = new HealthMonitor(
                        List.of(target(tcp, translation)), Clock.systemUTC(), new SimpleMeterRegistry())) {
            plain.start();
            translated.start();
            Awaits.until("checked at the public address: down", LIMIT, () -> plain.state("web") == HealthState.DOWN);
            Awaits.until("checked at the translation: up", LIMIT, () -> translated.state("web") == HealthState.UP);
            HealthMonitor.Status status = translated.statuses().getFirst();
            assertThat(status.address()).as("what answers give").isEqualTo("127.0.0.2");
            assertThat(status.checked()).isEqualTo("127.0.0.3:" + internal.getLocalPort());
            assertThat(status.reason()).isEqualTo("tcp " + internal.getLocalPort() + " accepted");
            assertThat(plain.statuses().getFirst().checked()).isNull();

            internal.close();
            Awaits.until(
                    "the translation's service stopped: down",
                    LIMIT,
                    () -> translated.state("web") == HealthState.DOWN);
        }
    }

    @Test
    void aTranslationWithoutAPortKeepsTheMonitorsPort() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress(INTERNAL, 0), 0);
        http.createContext("/", x -> {
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        http.start();
        try (HealthMonitor m = new HealthMonitor(
                List.of(target(
                        fast(new HttpCheck(false, http.getAddress().getPort(), "/", null, 200, null)),
                        new HostPort(INTERNAL, HostPort.NO_PORT))),
                Clock.systemUTC(),
                new SimpleMeterRegistry())) {
            m.start();
            Awaits.until("up through the internal address", LIMIT, () -> m.state("web") == HealthState.UP);
            assertThat(m.statuses().getFirst().checked()).isEqualTo("127.0.0.3");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void checksWithAPortTakeTheTranslationsAndTheRestStayThemselves() {
        assertThat(new TcpCheck(80).atPort(8080)).isEqualTo(new TcpCheck(8080));
        assertThat(new HttpCheck(true, 443, "/", null, 200, null).atPort(8443).port())
                .isEqualTo(8443);
        IcmpCheck icmp = new IcmpCheck();
        assertThat(icmp.atPort(8080)).isSameAs(icmp);
        MonitorSpec spec = fast(new TcpCheck(80));
        assertThat(target(spec, new HostPort(INTERNAL, 8080)).check(spec)).isEqualTo(new TcpCheck(8080));
        assertThat(target(spec, new HostPort(INTERNAL, HostPort.NO_PORT)).check(spec))
                .isEqualTo(new TcpCheck(80));
        assertThat(new HealthTarget(
                                new VirtualServer("v6", InetAddress.ofLiteral("2001:db8::1"), new DataCenter("CNC")),
                                List.of(),
                                new HostPort(InetAddress.ofLiteral("fd00::10"), 8080))
                        .checked())
                .isEqualTo("[fd00::10]:8080");
    }
}
