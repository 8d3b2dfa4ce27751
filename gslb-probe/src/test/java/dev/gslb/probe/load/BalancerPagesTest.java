package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.FreePorts;
import dev.gslb.probe.Nginx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balancers' pages against the real balancers: nginx with stub_status and HAProxy with its
 * CSV stats, each run by the test on a free loopback port with its own configuration, and held
 * connections that the pages must count.
 */
class BalancerPagesTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    final List<Process> processes = new ArrayList<>();
    final List<Socket> held = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket s : held) {
            s.close();
        }
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    Process start(String name, String... command) throws IOException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
        processes.add(p);
        return p;
    }

    /** Opens {@code n} connections to {@code port} and keeps them open until the test ends. */
    void hold(int port, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            held.add(new Socket(LOOPBACK, port));
        }
    }

    static double readWhen(LoadSource source, Metric m, java.util.function.DoublePredicate done) throws Exception {
        return Awaits.until(
                source.describe() + " to read " + m.key(),
                Duration.ofSeconds(10),
                () -> {
                    try {
                        return source.read(TIMEOUT).get(m);
                    } catch (IOException e) {
                        return -2.0; // not up yet
                    }
                },
                v -> done.test(v));
    }

    @Test
    void nginxStubStatusGivesItsActiveConnections() throws Exception {
        try (Nginx server = new Nginx(dir)) {
            nginxPages(server);
        }
    }

    private void nginxPages(Nginx server) throws Exception {
        int port = server.port;
        try (LoadSource nginx = new NginxStatus(URI.create("http://127.0.0.1:" + port + "/stub_status"))) {
            assertThat(nginx.metrics()).containsExactly(Metric.CONNECTIONS);
            double idle = readWhen(nginx, Metric.CONNECTIONS, v -> v >= 1); // the read itself is one
            server.hold(5);
            double busy = readWhen(nginx, Metric.CONNECTIONS, v -> v >= idle + 5);
            assertThat(busy).isGreaterThanOrEqualTo(idle + 5);
            assertThat(nginx.describe()).isEqualTo("nginx http://127.0.0.1:" + port + "/stub_status");
        }
        try (LoadSource moved = new NginxStatus(URI.create("http://127.0.0.1:" + port + "/moved"))) {
            assertThatThrownBy(() -> moved.read(TIMEOUT))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("status 302 (redirects are not followed)");
        }
        try (LoadSource notStatus = new NginxStatus(URI.create("http://127.0.0.1:" + port + "/nothing"))) {
            assertThatThrownBy(() -> notStatus.read(TIMEOUT)).hasMessageContaining("status 404");
        }
    }

    @Test
    void haproxyCsvGivesTheBackendsSessionsAndItsServersUp() throws Exception {
        try (ServerSocket live = new ServerSocket(0, 50, LOOPBACK)) {
            Thread.ofVirtual()
                    .start(
                            () -> { // the server behind: takes connections and keeps them
                                List<Socket> kept = new ArrayList<>();
                                try {
                                    while (true) {
                                        kept.add(live.accept());
                                    }
                                } catch (IOException closed) {
                                    kept.forEach(s -> {
                                        try {
                                            s.close();
                                        } catch (IOException ignored) {
                                            // closing
                                        }
                                    });
                                }
                            });
            int stats = FreePorts.udpAndTcp();
            int web = FreePorts.udpAndTcp();
            int dead = FreePorts.udpAndTcp(); // nothing listens: its server goes down
            Path conf = dir.resolve("haproxy.cfg");
            Files.writeString(conf, """
                    global
                        maxconn 100
                    defaults
                        mode tcp
                        timeout connect 1s
                        timeout client 60s
                        timeout server 60s
                    frontend stats
                        mode http
                        bind 127.0.0.1:%d
                        stats enable
                        stats uri /stats
                    listen web
                        bind 127.0.0.1:%d
                        balance roundrobin
                        server up1 127.0.0.1:%d check inter 200ms
                        server down1 127.0.0.1:%d check inter 200ms fall 1
                        server maint1 127.0.0.1:%d check inter 200ms disabled
                    """.formatted(stats, web, live.getLocalPort(), dead, live.getLocalPort()));
            start("haproxy", "haproxy", "-db", "-f", conf.toString());
            URI url = URI.create("http://127.0.0.1:" + stats + "/stats;csv");
            try (LoadSource haproxy = HaproxyStats.of(
                    new HaproxyStats.Spec(url, "web", new dev.gslb.settings.ByteSize(StatusPage.DEFAULT_MAX_BYTES)))) {
                assertThat(haproxy.metrics()).containsExactlyInAnyOrder(Metric.CONNECTIONS, Metric.SERVERS_UP);
                assertThat(readWhen(haproxy, Metric.SERVERS_UP, v -> v == 1))
                        .as("up1 only: down1 fails its check, maint1 is in maintenance")
                        .isEqualTo(1);
                assertThat(haproxy.read(TIMEOUT).get(Metric.CONNECTIONS)).isZero();
                hold(web, 4);
                assertThat(readWhen(haproxy, Metric.CONNECTIONS, v -> v == 4)).isEqualTo(4);
                assertThat(haproxy.describe()).isEqualTo("haproxy " + url + " backend web");
            }
            try (LoadSource none = HaproxyStats.of(
                    new HaproxyStats.Spec(url, "api", new dev.gslb.settings.ByteSize(StatusPage.DEFAULT_MAX_BYTES)))) {
                assertThatThrownBy(() -> none.read(TIMEOUT)).hasMessageContaining("no BACKEND row for backend 'api'");
            }
        }
    }
}
