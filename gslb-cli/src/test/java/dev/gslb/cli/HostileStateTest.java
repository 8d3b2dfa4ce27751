package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.GslbConfig;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.UdpDrops;
import dev.gslb.probe.proximity.Path;
import dev.gslb.server.GslbServer;
import dev.gslb.topology.Address;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/** The server's state under hostile input, over real sockets: spoofed resolvers, a browser, a stranger. */
class HostileStateTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static int post(GslbServer s, String path, String auth, String contentType, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(Isolated.adminUrl(s) + path))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** Sends {@code request} as is on a new connection; the status line of the answer. */
    static String raw(GslbServer s, String request) throws Exception {
        String address = s.admin().address();
        try (var socket = new java.net.Socket(
                InetAddress.getLoopbackAddress(), Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)))) {
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.shutdownOutput(); // no more body: the server need not wait for what Content-Length promised
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("");
        }
    }

    @Test
    void theAdminApiRefusesWhatABrowserOrAStrangerSends() throws Exception {
        try (GslbServer s = Isolated.started()) {
            String token = Isolated.bearer(s);
            String json = "application/json";
            assertThat(post(s, "/peer/pair", null, json, "{}")).as("no token").isEqualTo(401);
            assertThat(post(s, "/peer/pair", "Bearer wrong-token-000000000000", json, "{}"))
                    .isEqualTo(401);
            assertThat(post(s, "/peer/pair", token, json, "{}", "Origin", "https://evil.example"))
                    .as("a page in the operator's browser")
                    .isEqualTo(403);
            assertThat(post(s, "/topology/load", token, "text/plain", "{\"files\":{}}"))
                    .as("no-preflight body")
                    .isEqualTo(415);
            // Raw requests: the server answers from the headers, before any body is read, and
            // HttpClient would not send another Host header.
            assertThat(raw(
                            s,
                            "POST /peer/join HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + token
                                    + "\r\nContent-Type: application/json\r\nContent-Length: " + (17 << 20)
                                    + "\r\nConnection: close\r\n\r\n{"))
                    .as("a body over max-body, refused from its Content-Length")
                    .contains(" 413 ");
            assertThat(
                            raw(
                                    s,
                                    "POST /peer/pair HTTP/1.1\r\nHost: evil.example:8053\r\nAuthorization: " + token
                                            + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
                    .as("DNS rebinding")
                    .contains(" 403 ");
            assertThat(post(s, "/peer/pair", token, json, "{}"))
                    .as("the operator")
                    .isEqualTo(200);
            HttpResponse<String> metrics = HTTP.send(
                    HttpRequest.newBuilder(URI.create(Isolated.adminUrl(s) + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode())
                    .as("Prometheus scrapes without a token")
                    .isEqualTo(200);
            HttpResponse<String> list = HTTP.send(
                    HttpRequest.newBuilder(URI.create(Isolated.adminUrl(s) + "/ldns/list"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(list.statusCode()).as("other reads need the token").isEqualTo(401);
        }
    }

    static void query(InetSocketAddress server, InetAddress from, byte[] wire) throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(from, 0))) {
            s.send(new DatagramPacket(wire, wire.length, server));
        }
    }

    /**
     * Waits until each of {@code sent} queries has been answered, rate limited or dropped by the server, or
     * dropped by the kernel at the server's socket before it was read (UDP on loopback may lose some).
     */
    static void awaitDealtWith(GslbServer s, int sent) throws Exception {
        int port = s.dns().boundAddresses().getFirst().getPort();
        Awaits.until(
                sent + " queries dealt with",
                Duration.ofSeconds(60),
                () -> udpCount(s, "dns_responses")
                                + s.metric("dns_rate_limited", "action", "slipped")
                                + udpCount(s, "dns_dropped") // by the server, rate limiting included
                                + UdpDrops.at(port)
                        >= sent);
    }

    private static double udpCount(GslbServer s, String name) {
        return s.registry().find(dev.gslb.server.metrics.MetricPrefix.of(name)).counters().stream()
                .filter(c -> !"tcp".equals(c.getId().getTag("transport")))
                .mapToDouble(c -> c.count())
                .sum();
    }

    @Test
    void measuredLdnsSurviveAFloodOfSpoofedSourcesOverRealSockets() throws Exception {
        GslbConfig c = Isolated.embedded();
        dev.gslb.probe.schedule.Probing p = c.probing();
        c = c.withProbing(new dev.gslb.probe.schedule.Probing(
                p.probes(),
                p.proximity().withMaxLdns(10_000).withNewPerNetwork(100_000, 100_000),
                p.store(),
                p.flushInterval()));
        try (GslbServer s = new GslbServer(c)) {
            s.start();
            InetSocketAddress dns = s.dns().boundAddresses().getFirst();
            byte[] wire = Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN))
                    .toWire();
            long now = System.currentTimeMillis();
            for (int i = 0; i < 1000; i++) { // 1,000 resolvers this data center measured
                InetAddress ldns = InetAddress.ofLiteral("127.1." + (i / 250) + "." + (i % 250 + 1));
                s.proximity().recordPath(Address.of(ldns), Path.of("CNC", 1000, 10000, 0, ProbeProtocol.UDP, now, "t"));
            }
            int spoofed = 200_000;
            int sent = 0;
            for (int i = 0; i < spoofed; i++, sent++) {
                query(
                        dns,
                        InetAddress.ofLiteral("127.2" + (i >> 16) + "." + ((i >> 8) & 0xFF) + "." + (i & 0xFF)),
                        wire);
                if (i % 20_000 == 0) { // the measured ones keep asking
                    for (int j = 0; j < 1000; j += 50) {
                        query(dns, InetAddress.ofLiteral("127.1." + (j / 250) + "." + (j % 250 + 1)), wire);
                        sent++;
                    }
                }
            }
            awaitDealtWith(s, sent);
            assertThat(s.proximity().size()).isLessThanOrEqualTo(10_000);
            for (int i = 0; i < 1000; i++) {
                assertThat(s.proximity().get(Address.parse("127.1." + (i / 250) + "." + (i % 250 + 1))))
                        .as("measured LDNS %d", i)
                        .isNotNull();
            }
            // UDP on loopback loses what the socket's buffer cannot hold (more on a busy host): the
            // churn is judged on the queries that reached the server
            long lost = UdpDrops.at(s.dns().boundAddresses().getFirst().getPort());
            assertThat(s.proximity().evicted())
                    .as("the flood churned the full table (%d of the queries lost at the socket)", lost)
                    .isGreaterThan((spoofed - lost) / 2);
            System.out.printf(
                    "spoofed flood over UDP: %d sources, %d lost at the socket, table %d, admitted %d, evicted %d, refused %d%n",
                    spoofed,
                    lost,
                    s.proximity().size(),
                    s.proximity().admitted(),
                    s.proximity().evicted(),
                    s.proximity().refused());
        }
    }

    @Test
    void byDefaultNoProbeLeavesForLoopbackLinkLocalOrThisHost() throws Exception {
        GslbConfig c = Isolated.embedded();
        dev.gslb.probe.schedule.Probing p = c.probing();
        c = c.withProbing(new dev.gslb.probe.schedule.Probing(
                p.probes().withExclusions(dev.gslb.probe.schedule.ProbeSettings.DEFAULT_EXCLUDED),
                p.proximity(),
                p.store(),
                p.flushInterval()));
        try (GslbServer s = new GslbServer(c)) {
            s.start();
            for (String a : List.of(
                    "127.0.0.9", "169.254.1.1", "10.1.2.3", "192.168.1.1", "100.64.0.1", "::1", "fe80::1", "fd00::1")) {
                assertThat(s.scheduler().isExcluded(InetAddress.ofLiteral(a)))
                        .as(a)
                        .isTrue();
            }
            for (var i : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
                for (var a : java.util.Collections.list(i.getInetAddresses())) {
                    assertThat(s.scheduler().isExcluded(a))
                            .as("this host's " + a)
                            .isTrue();
                }
            }
            assertThat(s.scheduler().isExcluded(InetAddress.ofLiteral("61.136.178.229")))
                    .isFalse();
            InetSocketAddress dns = s.dns().boundAddresses().getFirst();
            byte[] wire = Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN))
                    .toWire();
            for (int i = 1; i <= 50; i++) {
                query(dns, InetAddress.ofLiteral("127.0.3." + i), wire);
            }
            awaitDealtWith(s, 50);
            assertThat(s.proximity().size()).as("excluded LDNS make no entries").isZero();
            assertThat(s.metric("probe_rounds", "result", "probed") + s.metric("probe_rounds", "result", "unprobeable"))
                    .as("no probe left")
                    .isZero();
            assertThat(s.metric("probe_requests_skipped", "reason", "excluded"))
                    .as("the queries that arrived")
                    .isPositive()
                    .isLessThanOrEqualTo(50);
        }
    }
}
