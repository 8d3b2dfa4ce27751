package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.ConfigLoader;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * Health through the real server: virtual servers on loopback with TCP monitors on listeners the
 * test opens and closes. The first member down answers the second; both down apply the failure
 * behaviour; a member that passes again comes back. Config reload swaps answers, a bad one does not.
 */
class FailoverEndToEndTest {
    static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    static String config(int port, String failure) {
        return LoopbackConfig.local("gslb-test", "CNC") + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors:
                  - {name: svc, type: tcp, port: %d, interval: 100ms, timeout: 50ms, up: 1, down: 2}
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC, monitors: [svc]}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL, monitors: [svc]}
                pools:
                  - {name: www, members: [cnc, tel]}
                wide-ips:
                  - {name: www.example.com, pools: [www], ttl: 10, failure: %s}
                """.formatted(port, failure);
    }

    static Message ask(GslbServer s) throws Exception {
        SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
        r.setTimeout(Duration.ofSeconds(2));
        return r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
    }

    /** {@link #ask} for {@link Awaits}: a failure to get an answer ends the wait, as it ends the test. */
    static Supplier<Message> asking(GslbServer s) {
        return () -> {
            try {
                return ask(s);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static Predicate<Message> answers(String address) {
        return m -> m.getSection(Section.ANSWER).stream()
                .anyMatch(r -> r.rdataToString().equals(address));
    }

    static ServerSocket listen(String address, int port) throws Exception {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.ofLiteral(address), port));
        Thread.ofVirtual().start(() -> {
            while (!s.isClosed()) {
                try (var c = s.accept()) {
                    // accepted: the monitor's check passes
                } catch (Exception e) {
                    return;
                }
            }
        });
        return s;
    }

    @Test
    void memberDownAnswersTheNextBothDownApplyTheFailureAndRecoveryRestores() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, config(port, "{rcode: servfail, ttl: 5}"));
        ServerSocket cnc = listen("127.0.1.1", port);
        ServerSocket tel = listen("127.0.1.2", port);
        try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
            s.reloadFrom(() -> ConfigLoader.load(file));
            s.start();
            assertThat(Awaits.until("an answer of 127.0.1.1", LIMIT, asking(s), answers("127.0.1.1"))
                            .getSection(Section.ANSWER)
                            .getFirst()
                            .rdataToString())
                    .isEqualTo("127.0.1.1");

            cnc.close();
            Message second = Awaits.until("an answer of 127.0.1.2", LIMIT, asking(s), answers("127.0.1.2"));
            assertThat(second.getSection(Section.ANSWER))
                    .singleElement()
                    .satisfies(r -> assertThat(r.rdataToString()).isEqualTo("127.0.1.2"));

            tel.close();
            Message failed = Awaits.until("SERVFAIL", LIMIT, asking(s), m -> m.getRcode() == Rcode.SERVFAIL);
            assertThat(failed.getRcode())
                    .as("both down: the wide IP's failure rcode")
                    .isEqualTo(Rcode.SERVFAIL);

            Files.writeString(file, config(port, "{fallback-ip: [198.18.9.9], ttl: 5}"));
            assertThat(s.reload().wideIps()).isEqualTo(1);
            Message fallback = ask(s);
            assertThat(fallback.getSection(Section.ANSWER).getFirst().rdataToString())
                    .isEqualTo("198.18.9.9");
            assertThat(fallback.getSection(Section.ANSWER).getFirst().getTTL()).isEqualTo(5);

            Files.writeString(file, config(port, "{rcode: bogus}"));
            org.assertj.core.api.Assertions.assertThatThrownBy(s::reload)
                    .hasMessageContaining(file + ":16:62: failure rcode must be");
            assertThat(ask(s).getSection(Section.ANSWER).getFirst().rdataToString())
                    .as("the old config serves on")
                    .isEqualTo("198.18.9.9");

            cnc = listen("127.0.1.1", port);
            assertThat(Awaits.until("an answer of 127.0.1.1", LIMIT, asking(s), answers("127.0.1.1"))
                            .getSection(Section.ANSWER)
                            .getFirst()
                            .rdataToString())
                    .as("a member that passes again is answered again")
                    .isEqualTo("127.0.1.1");

            // the monitor moves to another port, where only TEL listens: applied by the reload
            try (ServerSocket telOther = listen("127.0.1.2", 0)) {
                Files.writeString(file, config(telOther.getLocalPort(), "{rcode: servfail, ttl: 5}"));
                s.reload();
                assertThat(Awaits.until("an answer of 127.0.1.2", LIMIT, asking(s), answers("127.0.1.2"))
                                .getSection(Section.ANSWER)
                                .getFirst()
                                .rdataToString())
                        .as("monitors change on reload, without a restart")
                        .isEqualTo("127.0.1.2");
            }
        } finally {
            cnc.close();
            tel.close();
        }
    }
}
