package dev.gslb.probe.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.settings.ByteSize;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP sources against a hostile server the test runs on loopback (a plain ServerSocket, so it
 * can misbehave at the byte level): garbage, a page of a gigabyte streamed without end, a slow
 * drip, a 500; and a Prometheus page with labels. Each bad page is an IOException naming what is
 * wrong, read no further than the limit and held no longer than the timeout.
 */
@Timeout(60) // a read that is not bounded would hang here, not pass
class StatusPageBoundsTest {
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    interface Handler {
        void answer(OutputStream out) throws IOException;
    }

    final Map<String, Handler> pages = new ConcurrentHashMap<>();
    final AtomicLong streamed = new AtomicLong();
    final AtomicBoolean dripEnded = new AtomicBoolean();
    ServerSocket server;

    @BeforeEach
    void serve() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.ofLiteral("127.0.0.1"));
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> answer(s));
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    void answer(Socket s) {
        try (s) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String path = in.readLine().split(" ")[1];
            while (!in.readLine().isEmpty()) {
                // the request's headers
            }
            pages.getOrDefault(path, out -> ok(out, "not here")).answer(s.getOutputStream());
        } catch (IOException | RuntimeException e) {
            // the client went away
        }
    }

    static void ok(OutputStream out, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + b.length
                        + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(b);
    }

    URI at(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    PrometheusMetric prometheus(String path, String metric, Map<String, String> labels, String as) {
        return PrometheusMetric.of(new PrometheusMetric.Spec(
                at(path), metric, labels, Metric.ofKey(as), new ByteSize(StatusPage.DEFAULT_MAX_BYTES)));
    }

    @Test
    void prometheusReadsTheOneSeriesWithTheLabelsGiven() throws Exception {
        pages.put("/metrics", out -> ok(out, """
                # HELP node_netstat_Tcp_CurrEstab Statistic TcpCurrEstab.
                # TYPE node_netstat_Tcp_CurrEstab untyped
                node_netstat_Tcp_CurrEstab{job="web",instance="a"} 120
                node_netstat_Tcp_CurrEstab{job="db",instance="a"} 7
                node_netstat_Tcp_CurrEstab_total{job="web"} 99
                node_load1 0.42 1700000000000
                http_requests{path="/a,\\"b\\"",job="web"} 3e2
                nginx_up{job="web"} -1
                weird{job="web"} lots
                """));
        try (LoadSource web =
                prometheus("/metrics", "node_netstat_Tcp_CurrEstab", Map.of("job", "web"), "connections")) {
            assertThat(web.read(TIMEOUT).values()).isEqualTo(Map.of(Metric.CONNECTIONS, 120.0));
            assertThat(web.metrics()).containsExactly(Metric.CONNECTIONS);
        }
        try (LoadSource load = prometheus("/metrics", "node_load1", Map.of(), "load-average")) {
            assertThat(load.read(TIMEOUT).get(Metric.LOAD_AVERAGE)).isEqualTo(0.42);
        }
        try (LoadSource escaped = prometheus("/metrics", "http_requests", Map.of("path", "/a,\"b\""), "connections")) {
            assertThat(escaped.read(TIMEOUT).get(Metric.CONNECTIONS)).isEqualTo(300.0);
        }
        try (LoadSource two = prometheus("/metrics", "node_netstat_Tcp_CurrEstab", Map.of(), "connections")) {
            assertThatThrownBy(() -> two.read(TIMEOUT)).hasMessageContaining("2 series match");
        }
        try (LoadSource none =
                prometheus("/metrics", "node_netstat_Tcp_CurrEstab", Map.of("job", "x"), "connections")) {
            assertThatThrownBy(() -> none.read(TIMEOUT))
                    .hasMessageContaining("no series node_netstat_Tcp_CurrEstab{job=x}");
        }
        try (LoadSource negative = prometheus("/metrics", "nginx_up", Map.of(), "servers-up")) {
            assertThatThrownBy(() -> negative.read(TIMEOUT)).hasMessageContaining("is -1.0, not a load");
        }
        try (LoadSource garbage = prometheus("/metrics", "weird", Map.of(), "connections")) {
            assertThatThrownBy(() -> garbage.read(TIMEOUT)).hasMessageContaining("line 9: 'lots' is not a number");
        }
        assertThatThrownBy(() -> prometheus("/metrics", "x", Map.of(), "speed"))
                .hasMessageContaining("'speed' is not a metric");
    }

    @Test
    void garbageAndErrorsAreErrorsNamingWhatIsWrong() throws Exception {
        pages.put(
                "/500",
                out -> out.write("HTTP/1.1 500 Oops\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII)));
        pages.put("/garbage", out -> ok(out, "Active connections: many\nserver accepts handled requests\n"));
        pages.put("/binary", out -> out.write(new byte[] {0, 1, 2, (byte) 0xff, '\r', '\n', '\r', '\n'}));
        pages.put("/csv", out -> ok(out, """
                # pxname,svname,qcur,scur,status
                web,FRONTEND,0,3,OPEN
                web,BACKEND,0,-3,UP
                api,BACKEND,0,x,UP
                """));
        pages.put("/csv-old", out -> ok(out, "# pxname,svname,status\nweb,BACKEND,UP\n"));
        try (LoadSource nginx = new NginxStatus(at("/500"))) {
            assertThatThrownBy(() -> nginx.read(TIMEOUT))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("status 500");
        }
        try (LoadSource nginx = new NginxStatus(at("/garbage"))) {
            assertThatThrownBy(() -> nginx.read(TIMEOUT)).hasMessageContaining("no 'Active connections: N' line");
        }
        try (LoadSource nginx = new NginxStatus(at("/binary"))) {
            assertThatThrownBy(() -> nginx.read(TIMEOUT)).isInstanceOf(IOException.class);
        }
        ByteSize mib = new ByteSize(StatusPage.DEFAULT_MAX_BYTES);
        try (LoadSource web = HaproxyStats.of(new HaproxyStats.Spec(at("/csv"), "web", mib));
                LoadSource api = HaproxyStats.of(new HaproxyStats.Spec(at("/csv"), "api", mib));
                LoadSource old = HaproxyStats.of(new HaproxyStats.Spec(at("/csv-old"), "web", mib));
                LoadSource html = HaproxyStats.of(new HaproxyStats.Spec(at("/garbage"), "web", mib))) {
            assertThatThrownBy(() -> web.read(TIMEOUT))
                    .hasMessageContaining("scur of backend web is '-3', not a count");
            assertThatThrownBy(() -> api.read(TIMEOUT)).hasMessageContaining("scur of backend api is 'x', not a count");
            assertThatThrownBy(() -> old.read(TIMEOUT)).hasMessageContaining("no column 'scur'");
            assertThatThrownBy(() -> html.read(TIMEOUT)).hasMessageContaining("not HAProxy's CSV stats");
        }
        assertThatThrownBy(() -> StatusPage.address("nginx", "ftp://198.18.1.1/x"))
                .hasMessageContaining("is not an http:// or https:// URL");
    }

    @Test
    void aGigabytePageIsReadNoFurtherThanTheLimit() throws Exception {
        byte[] chunk = "node_load1 1\n".repeat(5000).getBytes(StandardCharsets.US_ASCII);
        Handler gigabyte = out -> { // no length given: only the reader's limit stops it
            out.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (long sent = 0; sent < 1L << 30; sent += chunk.length) {
                out.write(chunk);
                streamed.addAndGet(chunk.length);
            }
        };
        pages.put("/gigabyte", gigabyte);
        pages.put(
                "/announced",
                out -> out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + (1L << 30) + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII)));
        try (LoadSource big = prometheus("/gigabyte", "node_load1", Map.of(), "load-average")) {
            assertThatThrownBy(() -> big.read(Duration.ofSeconds(20)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("larger than the limit of 1048576 bytes");
        }
        long sent = Awaits.until(
                "the server to stop sending",
                Duration.ofSeconds(20),
                streamed::get,
                new java.util.function.Predicate<Long>() {
                    long last = -1;

                    @Override
                    public boolean test(Long now) {
                        boolean still = now == last;
                        last = now;
                        return still && now > 0;
                    }
                });
        assertThat(sent).as("what the server got out before the reader hung up").isLessThan(64L << 20);
        try (LoadSource announced = new NginxStatus(at("/announced"))) {
            assertThatThrownBy(() -> announced.read(TIMEOUT))
                    .hasMessageContaining("a page of 1073741824 bytes, over the limit");
        }
    }

    @Test
    void aSlowDripIsCutOffAtTheTimeout() throws Exception {
        pages.put("/drip", out -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nActive connections: 1"
                    .getBytes(StandardCharsets.US_ASCII));
            try {
                for (int i = 0; i < 100_000; i++) { // a byte every 50 ms: over an hour for the page
                    out.write(' ');
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                dripEnded.set(true); // the write failed: the reader closed the connection
            }
        });
        pages.put("/silent", out -> {
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (LoadSource drip = new NginxStatus(at("/drip"))) {
            assertThatThrownBy(() -> drip.read(TIMEOUT)).hasMessageContaining("no whole answer within 1000 ms");
            Awaits.until("the dripping connection to be closed", Duration.ofSeconds(20), dripEnded::get);
        }
        try (LoadSource silent = new NginxStatus(at("/silent"))) {
            assertThatThrownBy(() -> silent.read(TIMEOUT)).hasMessageContaining("within 1000 ms");
        }
    }
}
