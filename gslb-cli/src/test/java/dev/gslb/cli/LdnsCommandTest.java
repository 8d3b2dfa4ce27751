package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import dev.gslb.topology.Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/** A wide-IP query from an unknown LDNS raises a probe; `gslb ldns ...` and `gslb health` show the result. */
class LdnsCommandTest {
    private static GslbServer server;
    private static String admin;

    @BeforeAll
    static void start() throws Exception {
        server = Isolated.started();
        admin = Isolated.adminUrl(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static TopologyCommandTest.Run gslb(String... args) {
        return TopologyCommandTest.gslb(args);
    }

    @Test
    void aQueryFromAnUnknownLdnsIsAnsweredAtOnceAndProbedAfter() throws Exception {
        InetAddress ldns = InetAddress.ofLiteral("127.0.0.44");
        SimpleResolver r = new SimpleResolver(server.dns().boundAddresses().getFirst());
        r.setLocalAddress(new InetSocketAddress(ldns, 0));
        r.setTimeout(Duration.ofSeconds(2));
        Message answer =
                r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
        assertThat(answer.getSection(1)).isNotEmpty();
        var key = Address.of(ldns);
        Awaits.until(
                "127.0.0.44 probed",
                Duration.ofSeconds(10),
                () -> server.proximity().get(key) != null
                        && server.proximity().get(key).path("CNC") != null);
        assertThat(server.proximity().get(key).path("CNC"))
                .as("probed by this data center")
                .isNotNull();

        TopologyCommandTest.Run show = gslb("ldns", "show", "127.0.0.44", "--admin", admin);
        assertThat(show.exit()).isZero();
        assertThat(show.out()).contains("127.0.0.44", "state probed", ", kept CNC", "CNC", "completion 100.00 %");
        TopologyCommandTest.Run threeDns = gslb("ldns", "list", "--format", "3dns", "--admin", admin);
        assertThat(threeDns.out())
                .contains(
                        "ldns {\n   address 127.0.0.44\n   cur_target_state ",
                        "   path {\n      datacenter \"CNC\"\n      cur_rtt ",
                        "      cur_completion_rate 10000\n      cur_last_hops ");
        assertThat(gslb("ldns", "list", "--dc", "TEL", "--admin", admin).out()).contains("0 LDNS");
        assertThat(gslb("ldns", "list", "--json", "--admin", admin).out())
                .contains("\"address\" : \"127.0.0.44\"", "\"keptDataCenter\" : \"CNC\"");
    }

    /** The source's own record, imported, gives the source's answer: TEL by RTT (57209 us against 189850). */
    @Test
    void aThreeDnsDumpIsImportedWholeOrNotAtAll() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("import");
        java.nio.file.Path dump = dir.resolve("ldns.txt");
        java.nio.file.Files.writeString(dump, """
                ldns {
                   address 61.136.178.229
                   cur_target_state 419446729
                   ttl 2419199
                   probe_protocol tcp
                   path {
                      datacenter "CNC"
                      cur_rtt 189850
                      cur_hops 0
                      cur_completion_rate 10000
                      cur_last_hops 0
                   }
                   path {
                      datacenter "TEL"
                      cur_rtt 57209
                      cur_hops 0
                      cur_completion_rate 10000
                      cur_last_hops 0
                   }
                }
                """);
        TopologyCommandTest.Run imported = gslb("import", "ldns", dump.toString(), "--admin", admin);
        assertThat(imported.exit()).isZero();
        assertThat(imported.out()).contains("imported 1 LDNS, 2 paths from " + dump, dump + ":3: cur_target_state");
        TopologyCommandTest.Run why = gslb("resolve", "www.example.com", "--ldns", "61.136.178.229", "--admin", admin);
        assertThat(why.out()).contains("decided by lowest-round-trip-time", "219.17.66.100");

        java.nio.file.Files.writeString(
                dump, "ldns {\n   address 198.18.77.1\n   path {\n      datacenter \"TEL\"\n      cur_rtt 5\n}\n");
        TopologyCommandTest.Run broken = gslb("import", "ldns", dump.toString(), "--admin", admin);
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.err()).contains(dump + ":1: this block is not closed");
        assertThat(server.proximity().get(Address.parse("198.18.77.1")))
                .as("nothing of a refused dump is applied")
                .isNull();
        server.proximity().remove(Address.parse("61.136.178.229")); // the other tests share the server
    }

    /** The answers of real queries, split as the source's statistics list prints them. */
    @Test
    void statsShowHowTheAnswersSplit() throws Exception {
        SimpleResolver r = new SimpleResolver(server.dns().boundAddresses().getFirst());
        r.setTimeout(Duration.ofSeconds(2));
        for (int i = 0; i < 3; i++) {
            r.send(Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN)));
        }
        TopologyCommandTest.Run stats = gslb("stats", "--wide-ip", "www.example.com", "--admin", admin);
        assertThat(stats.exit()).isZero();
        assertThat(stats.out())
                .contains("www.example.com.", "last minute", "last hour", "since start", "data centers: CNC 100 %")
                .containsPattern("pools: www 100 %; methods: [a-z-]+ ");
        assertThat(gslb("stats", "--json", "--admin", admin).out()).contains("\"lastMinute\"", "\"dataCenters\"");
        assertThat(gslb("stats", "--admin", admin).out())
                .contains("LDNS", "in regions: (no region) ")
                .containsPattern("sent to: CNC \\d+ \\(100 %\\)");
        assertThat(gslb("stats", "--ldns", "--json", "--admin", admin).out()).contains("\"regions\"", "\"ldns\"");
    }

    @Test
    void probeNowAndDelete() {
        TopologyCommandTest.Run probe = gslb("ldns", "probe", "127.0.0.45", "--protocol", "tcp", "--admin", admin);
        assertThat(probe.exit()).isZero();
        assertThat(probe.out()).contains("127.0.0.45 answered tcp", "completion 100.00 % (3 of 3)");
        assertThat(gslb("ldns", "delete", "127.0.0.45", "--admin", admin).out()).contains("deleted 127.0.0.45");
        TopologyCommandTest.Run gone = gslb("ldns", "show", "127.0.0.45", "--admin", admin);
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.err()).contains("not in the proximity table");
        TopologyCommandTest.Run excluded = gslb("ldns", "probe", "224.0.0.1", "--admin", admin);
        assertThat(excluded.exit()).isEqualTo(1);
        assertThat(excluded.err()).contains("exclusion list");
    }

    @Test
    void healthListsEveryVirtualServerUnknownWithoutMonitors() {
        TopologyCommandTest.Run h = gslb("health", "--admin", admin);
        assertThat(h.out()).containsPattern("vs1-cnc\\s+202.106.83.177\\s+CNC\\s+UNKNOWN");
        assertThat(h.out()).contains("no monitors");
    }
}
