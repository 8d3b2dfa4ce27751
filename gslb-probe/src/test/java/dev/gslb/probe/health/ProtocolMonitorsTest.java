package dev.gslb.probe.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.Unbound;
import dev.gslb.site.HealthState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol monitors against real servers on loopback: Python's smtpd (Debian's python3),
 * pyftpdlib (python3-pyftpdlib), unbound for DNS; POP3, IMAP and the TCP send/expect check
 * against small scripted socket servers speaking the protocol.
 */
class ProtocolMonitorsTest {
    static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    final List<Process> processes = new ArrayList<>();
    final List<ServerSocket> servers = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        for (ServerSocket s : servers) {
            s.close();
        }
    }

    static int freeTcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    /** Starts a program and waits until {@code port} accepts connections. */
    void start(int port, String... command) throws Exception {
        processes.add(new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(command[command.length - 1].replace('/', '_') + ".log")
                        .toFile())
                .start());
        Awaits.until(String.join(" ", command) + " listening on " + port, Duration.ofSeconds(10), () -> {
            try (Socket s = new Socket(LOOPBACK, port)) {
                return true;
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }

    /** A one-connection-at-a-time server that greets, then answers each line with {@code reply}. */
    int scripted(String greeting, Function<String, String> reply) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, LOOPBACK);
        servers.add(server);
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    OutputStream out = s.getOutputStream();
                    BufferedReader in =
                            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                    if (greeting != null) {
                        out.write(greeting.getBytes(StandardCharsets.US_ASCII));
                    }
                    for (String line; (line = in.readLine()) != null; ) {
                        String r = reply.apply(line);
                        if (r == null) {
                            break;
                        }
                        out.write(r.getBytes(StandardCharsets.US_ASCII));
                    }
                } catch (Exception e) {
                    // next connection
                }
            }
        });
        return server.getLocalPort();
    }

    /** A monitor as the config file gives it (the same reader and binding). */
    Check monitor(String yaml) throws Exception {
        return new dev.gslb.settings.SettingsReader(new dev.gslb.settings.SettingsModule())
                .read("test", yaml, dir, MonitorSpec.class)
                .value()
                .check();
    }

    @Test
    void smtpAgainstPythonsSmtpd() throws Exception {
        int port = freeTcpPort();
        start(
                port,
                "/usr/bin/python3",
                "-W",
                "ignore",
                "-m",
                "smtpd",
                "-n",
                "-c",
                "DebuggingServer",
                "127.0.0.1:" + port);
        CheckResult r = monitor("{name: m, type: smtp, port: %d, user: gslb.test, send: NOOP, expect-code: 250}"
                        .formatted(port))
                .run(LOOPBACK, TIMEOUT);
        assertThat(r.ok()).as(r.reason()).isTrue();
        assertThat(r.reason()).isEqualTo("smtp " + port + ": NOOP -> 250");
        CheckResult wrong = monitor("{name: m, type: smtp, port: %d, send: NOOP, expect-code: 421}".formatted(port))
                .run(LOOPBACK, TIMEOUT);
        assertThat(wrong.ok()).isFalse();
        assertThat(wrong.reason()).contains("expected 421");
        assertThat(monitor("{name: m, type: smtp, port: %d}".formatted(freeTcpPort()))
                        .run(LOOPBACK, TIMEOUT)
                        .ok())
                .as("nothing listens")
                .isFalse();
    }

    @Test
    void ftpAgainstPyftpdlib() throws Exception {
        int port = freeTcpPort();
        Files.createDirectories(dir.resolve("ftp"));
        start(
                port,
                "/usr/bin/python3",
                "-m",
                "pyftpdlib",
                "-i",
                "127.0.0.1",
                "-p",
                String.valueOf(port),
                "-u",
                "monitor",
                "-P",
                "secret123",
                "-d",
                dir.resolve("ftp").toString());
        CheckResult r = monitor("{name: m, type: ftp, port: %d, user: monitor, password: secret123, send: NOOP}"
                        .formatted(port))
                .run(LOOPBACK, TIMEOUT);
        assertThat(r.ok()).as(r.reason()).isTrue();
        Path secret = Files.writeString(dir.resolve("ftp-password"), "secret123\n");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        CheckResult fromFile = monitor(
                        "{name: m, type: ftp, port: %d, user: monitor, password-file: ftp-password}".formatted(port))
                .run(LOOPBACK, TIMEOUT);
        assertThat(fromFile.ok())
                .as("the password read from its file: " + fromFile.reason())
                .isTrue();
        CheckResult refused = monitor("{name: m, type: ftp, port: %d, user: monitor, password: wrong}".formatted(port))
                .run(LOOPBACK, Duration.ofSeconds(6)); // pyftpdlib answers a failed login after 3 s
        assertThat(refused.ok()).isFalse();
        assertThat(refused.reason()).contains("login as monitor refused: 530");
    }

    @Test
    void pop3AndImapGreetingsAndLogins() throws Exception {
        int pop3 = scripted(
                "+OK POP3 ready\r\n",
                line -> line.startsWith("USER")
                        ? "+OK\r\n"
                        : line.equals("PASS secret123")
                                ? "+OK logged in\r\n"
                                : line.startsWith("PASS") ? "-ERR no\r\n" : null);
        CheckResult in = monitor("{name: m, type: pop3, port: %d, user: u, password: secret123}".formatted(pop3))
                .run(LOOPBACK, TIMEOUT);
        assertThat(in.ok()).as(in.reason()).isTrue();
        assertThat(monitor("{name: m, type: pop3, port: %d, user: u, password: wrong}".formatted(pop3))
                        .run(LOOPBACK, TIMEOUT)
                        .reason())
                .contains("login as u refused: -ERR no");
        int imap = scripted("* OK IMAP4rev1 ready\r\n", line -> {
            String tag = line.split(" ")[0];
            if (line.contains(" LOGIN ")) {
                return line.endsWith("secret123") ? tag + " OK LOGIN done\r\n" : tag + " NO LOGIN failed\r\n";
            }
            return line.contains(" LOGOUT") ? "* BYE\r\n" + tag + " OK LOGOUT done\r\n" : null;
        });
        assertThat(monitor("{name: m, type: imap, port: %d, user: u, password: secret123}".formatted(imap))
                        .run(LOOPBACK, TIMEOUT)
                        .ok())
                .isTrue();
        assertThat(monitor("{name: m, type: imap, port: %d, user: u, password: wrong}".formatted(imap))
                        .run(LOOPBACK, TIMEOUT)
                        .ok())
                .isFalse();
        int notImap = scripted("220 an SMTP server\r\n", line -> null);
        assertThat(monitor("{name: m, type: imap, port: %d}".formatted(notImap))
                        .run(LOOPBACK, TIMEOUT)
                        .reason())
                .contains("220 an SMTP server");
    }

    @Test
    void tcpSendExpect() throws Exception {
        int port = scripted(null, line -> line.equals("PING") ? "+PONG\r\n" : "-ERR unknown\r\n");
        CheckResult ok = monitor(
                        "{name: m, type: tcp, port: %d, send: 'PING\\r\\n', expect: '^\\+PONG'}".formatted(port))
                .run(LOOPBACK, TIMEOUT);
        assertThat(ok.ok()).as(ok.reason()).isTrue();
        CheckResult no = monitor(
                        "{name: m, type: tcp, port: %d, send: 'HELLO\\r\\n', expect: '^\\+PONG'}".formatted(port))
                .run(LOOPBACK, Duration.ofMillis(500));
        assertThat(no.ok()).isFalse();
        assertThat(no.reason()).contains("got '-ERR unknown'");
    }

    @Test
    void dnsAgainstUnbound() throws Exception {
        Unbound unbound = new Unbound(dir, """
                local-zone: "gslb.test." static
                local-data: "www.gslb.test. A 198.18.2.10"
                """);
        processes.add(unbound.process);
        int port = unbound.port;
        Check www = monitor("{name: m, type: dns, port: %d, query-name: www.gslb.test, expect-answer: 198.18.2.10}"
                .formatted(port));
        CheckResult r = Awaits.until(
                "unbound answering www.gslb.test",
                Duration.ofSeconds(20),
                () -> www.run(LOOPBACK, Duration.ofMillis(300)),
                CheckResult::ok);
        assertThat(r.ok()).as(r.reason()).isTrue();
        assertThat(monitor("{name: m, type: dns, port: %d, query-name: www.gslb.test, expect-answer: 198.18.3.10}"
                                .formatted(port))
                        .run(LOOPBACK, TIMEOUT)
                        .reason())
                .contains("no answer 198.18.3.10 (got [198.18.2.10])");
        assertThat(monitor("{name: m, type: dns, port: %d, query-name: nope.gslb.test, expect-rcode: NXDOMAIN}"
                                .formatted(port))
                        .run(LOOPBACK, TIMEOUT)
                        .ok())
                .isTrue();
    }

    @Test
    void aReloadKeepsUnchangedServersAndStartsChangedOnes() throws Exception {
        MonitorSpec fast = new MonitorSpec(
                "m",
                new TcpCheck(scripted("hi\r\n", line -> null)),
                Duration.ofMillis(100),
                Duration.ofMillis(50),
                1,
                1);
        HealthTarget a = new HealthTarget("a", LOOPBACK, "CNC", List.of(fast));
        HealthTarget b = new HealthTarget("b", LOOPBACK, "CNC", List.of(fast));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (HealthMonitor m = new HealthMonitor(List.of(a, b), Clock.systemUTC(), registry)) {
            m.start();
            Awaits.until(
                    "a and b UP",
                    Duration.ofSeconds(5),
                    () -> m.state("a") == HealthState.UP && m.state("b") == HealthState.UP);
            HealthTarget bMoved = new HealthTarget("b", InetAddress.ofLiteral("127.0.0.2"), "CNC", List.of());
            HealthTarget c = new HealthTarget("c", LOOPBACK, "TEL", List.of(fast));
            assertThat(m.reconfigure(List.of(a, bMoved, c)))
                    .as("b changed, c added")
                    .isEqualTo(2);
            assertThat(m.state("a")).as("unchanged: keeps its state").isEqualTo(HealthState.UP);
            assertThat(m.state("b")).as("changed: starts again").isEqualTo(HealthState.UNKNOWN);
            Awaits.until("c UP", Duration.ofSeconds(5), () -> m.state("c") == HealthState.UP);
            assertThat(m.state("c")).isEqualTo(HealthState.UP);
            assertThat(m.reconfigure(List.of(c))).isEqualTo(2);
            assertThat(m.targets()).containsExactly("c");
            assertThat(registry.find("health_state").tag("server", "a").gauge()).isNull();
        }
    }
}
