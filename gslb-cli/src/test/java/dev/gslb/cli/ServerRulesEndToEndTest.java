package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.Explanation;
import dev.gslb.api.Json;
import dev.gslb.api.ServerStatus;
import dev.gslb.config.ConfigLoader;
import dev.gslb.config.admin.AdminToken;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.FreePorts;
import dev.gslb.server.GslbServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * depends-on and translation through the real server: web is checked at its translation (a
 * loopback listener; nothing listens at its public address) and answered with its public address
 * while db, which it depends on, is up; db's service stopping takes web out of the answers, with
 * the reason in the explained decision, and starting again brings it back.
 */
class ServerRulesEndToEndTest {
    static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();

    static String config(int port, int translated) {
        return LoopbackConfig.local("gslb-test", "CNC") + """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                monitors:
                  - {name: svc, type: tcp, port: %d, interval: 100ms, timeout: 50ms, up: 1, down: 1}
                virtual-servers:
                  - {name: web, address: 127.0.1.1, datacenter: CNC, monitors: [svc], depends-on: [db],
                     translation: "127.0.1.3:%d"}
                  - {name: db, address: 127.0.1.4, datacenter: CNC, monitors: [svc]}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [web, tel], preferred: global-availability}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """.formatted(port, translated);
    }

    String get(GslbServer s, String pathAndQuery) throws Exception {
        String token = AdminToken.read(dir.resolve("var/admin.token"));
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://" + s.admin().address() + pathAndQuery))
                                .header("Authorization", "Bearer " + token)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    ServerStatus status(GslbServer s, String name) {
        try {
            List<ServerStatus> all =
                    Json.MAPPER.readValue(get(s, "/health/servers"), new TypeReference<List<ServerStatus>>() {});
            return all.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> answer(GslbServer s) throws Exception {
        SimpleResolver r = new SimpleResolver(s.dns().boundAddresses().getFirst());
        r.setTimeout(Duration.ofSeconds(2));
        Message m = r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
        return m.getSection(Section.ANSWER).stream()
                .filter(x -> x.getType() == Type.A)
                .map(Record::rdataToString)
                .toList();
    }

    static List<String> answers(GslbServer s) {
        try {
            return answer(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aServerIsCheckedAtItsTranslationAnsweredAtItsAddressAndFollowsWhatItDependsOn() throws Exception {
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        int port = FreePorts.udpAndTcp();
        int translated = FreePorts.udpAndTcp();
        Path file = dir.resolve("gslb.yaml");
        Files.writeString(file, config(port, translated));
        ServerSocket internal = FailoverEndToEndTest.listen("127.0.1.3", translated);
        ServerSocket db = FailoverEndToEndTest.listen("127.0.1.4", port);
        try (GslbServer s = new GslbServer(ConfigLoader.load(file))) {
            s.start();
            ServerStatus web =
                    Awaits.until("web up", LIMIT, () -> status(s, "web"), x -> x.state() == ServerStatus.State.UP);
            assertThat(web.address()).isEqualTo("127.0.1.1");
            assertThat(web.checked()).isEqualTo("127.0.1.3:" + translated);
            assertThat(web.reason()).contains("tcp " + translated + " accepted");
            Awaits.until("db up", LIMIT, () -> status(s, "db").state() == ServerStatus.State.UP);
            assertThat(answer(s)).as("the public address, not the translation").containsExactly("127.0.1.1");

            db.close();
            Awaits.until("web follows db out", LIMIT, () -> answers(s), a -> a.equals(List.of("127.0.1.2")));
            assertThat(status(s, "db").state()).isEqualTo(ServerStatus.State.DOWN);
            Explanation why =
                    Json.MAPPER.readValue(get(s, "/resolve?name=www.example.com&ldns=127.0.0.1"), Explanation.class);
            assertThat(why.steps())
                    .extracting(Explanation.Step::detail)
                    .contains("www: web 127.0.1.1 (CNC) unavailable: depends on db, which is down");
            assertThat(status(s, "web").state())
                    .as("its own monitor still passes")
                    .isEqualTo(ServerStatus.State.UP);

            db = FailoverEndToEndTest.listen("127.0.1.4", port);
            Awaits.until("web back with db", LIMIT, () -> answers(s), a -> a.equals(List.of("127.0.1.1")));
            assertThat(status(s, "db").state()).isEqualTo(ServerStatus.State.UP);

            System.setProperty("gslb.token-file", dir.resolve("var/admin.token").toString());
            TopologyCommandTest.Run health = TopologyCommandTest.gslb(
                    "health", "--admin", "http://" + s.admin().address());
            assertThat(health.out()).contains("127.0.1.1 checked at 127.0.1.3:" + translated);
        } finally {
            internal.close();
            db.close();
        }
    }
}
