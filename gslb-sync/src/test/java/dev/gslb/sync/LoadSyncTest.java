package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.health.HealthTarget;
import dev.gslb.probe.load.LoadReading;
import dev.gslb.probe.load.LoadSource;
import dev.gslb.probe.load.LoadSpec;
import dev.gslb.probe.load.LoadTarget;
import dev.gslb.probe.load.Metric;
import dev.gslb.probe.load.ServerLimits;
import dev.gslb.site.ServerLoad;
import dev.gslb.site.ServerState;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's load travels from the instance of its data center to its peers, which set it aside
 * past its limit as the owner does; a peer's load of another data center's server is refused and
 * counted, and values out of range refuse the frame. The source is scripted (the real sources
 * have their own tests); the sync is real, on loopback.
 */
class LoadSyncTest {
    @TempDir
    java.nio.file.Path dir;

    /** Connections as the test sets them, whenever read. */
    static final class Connections implements LoadSource {
        volatile double now;

        @Override
        public Set<Metric> metrics() {
            return Set.of(Metric.CONNECTIONS);
        }

        @Override
        public LoadReading read(Duration timeout) {
            return new LoadReading(Map.of(Metric.CONNECTIONS, now), 0);
        }

        @Override
        public String describe() {
            return "scripted connections";
        }
    }

    static final List<HealthTarget> SERVERS = List.of(
            new HealthTarget("vs-cnc", InetAddress.ofLiteral("198.18.10.10"), "CNC", List.of()),
            new HealthTarget("vs-tel", InetAddress.ofLiteral("198.18.20.10"), "TEL", List.of()));

    static List<LoadTarget> loads(LoadSource cnc, LoadSource tel) {
        ServerLimits limits = new ServerLimits(100L, null, null, null, 90);
        return List.of(
                new LoadTarget("vs-cnc", "CNC", spec(cnc), limits), new LoadTarget("vs-tel", "TEL", spec(tel), limits));
    }

    static LoadSpec spec(LoadSource s) {
        return new LoadSpec(List.of(s), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(500));
    }

    static ServerState at(Node n, String server) {
        var s = n.site.state();
        return s.at(s.site().servers().stream()
                .filter(vs -> vs.name().equals(server))
                .findFirst()
                .orElseThrow());
    }

    @Test
    void theOwnersLoadReachesThePeerAndSetsTheServerAsideThere() throws Exception {
        Connections cnc = new Connections();
        cnc.now = 150; // over the limit of 100
        try (Node a = Node.withLoads("a", "CNC", "127.0.0.2", dir, SERVERS, loads(cnc, new Connections()));
                Node b = Node.withLoads("b", "TEL", "127.0.0.3", dir, SERVERS, loads(new Connections(), cnc))) {
            Node.pair(a, b);
            ServerState seen = Awaits.until(
                    "b holding vs-cnc over its limit",
                    Duration.ofSeconds(10),
                    () -> at(b, "vs-cnc"),
                    s -> s.load().overLimit());
            assertThat(seen.load().connections()).isEqualTo(150);
            assertThat(seen.load().measuredBy()).isEqualTo("CNC");
            assertThat(seen.load().overLimitReason()).isEqualTo("vs-cnc over limit: connections 150 > 100");
            assertThat(seen.spillReason())
                    .as("set aside as its owner sets it")
                    .isEqualTo(seen.load().overLimitReason());
            assertThat(b.loads.polled()).as("b polls only TEL's server").containsExactly("vs-tel");
            assertThat(a.loads.polled()).containsExactly("vs-cnc");

            cnc.now = 10; // under resume
            Awaits.until(
                    "b holding vs-cnc back under its limit",
                    Duration.ofSeconds(10),
                    () -> at(b, "vs-cnc").load().connections() == 10);
            assertThat(at(b, "vs-cnc").spillReason()).isNull();
        }
    }

    @Test
    void aPeerCannotWriteTheLoadOfAnotherDataCentersServer() throws Exception {
        try (Node a = Node.withLoads(
                        "a", "CNC", "127.0.0.2", dir, SERVERS, loads(new Connections(), new Connections()));
                Node b = Node.withLoads(
                        "b", "TEL", "127.0.0.3", dir, SERVERS, loads(new Connections(), new Connections()))) {
            Node.pair(a, b);
            long now = System.currentTimeMillis();
            try (PeerSyncTest.Session s = a.speakAs(b)) {
                double dropped = a.registry.get("sync_items_dropped").counter().count();
                s.send(
                        Wire.Type.LOADS,
                        Item.encode(
                                Wire.Type.LOADS,
                                List.of(
                                        item("vs-cnc", 9999, true, now),
                                        item("NOPE", 9999, true, now),
                                        item("vs-tel", 500, true, now))));
                ServerLoad tel = Awaits.until(
                                "vs-tel's load on a",
                                Duration.ofSeconds(5),
                                () -> at(a, "vs-tel"),
                                st -> st.load().connections() == 500)
                        .load();
                assertThat(tel.overLimitReason())
                        .as("worded from a's own limits")
                        .isEqualTo("vs-tel over limit: connections 500 > 100");
                assertThat(at(a, "vs-cnc").load().connections())
                        .as("a's own server: b's word does not count")
                        .isNotEqualTo(9999);
                assertThat(a.registry.get("sync_items_dropped").counter().count())
                        .isEqualTo(dropped + 2);
            }
        }
    }

    static Item.LoadItem item(String server, long connections, boolean over, long at) {
        return item(server, connections, -1, -1, over, at);
    }

    static Item.LoadItem item(String server, long connections, double cpu, long bytes, boolean over, long at) {
        return new Item.LoadItem(
                server,
                new ServerLoad(connections, cpu, -1, -1, bytes, -1, -1, over ? "over" : null, at, "TEL"),
                at,
                30_000);
    }

    @Test
    void valuesOutOfRangeRefuseTheFrame() throws Exception {
        Peer peer = new Peer("b", "TEL", List.of(), "0".repeat(64));
        for (Item.LoadItem bad : List.of(
                item("vs", -1, 250, -1, false, 1),
                item("vs", -1, Double.NaN, -1, false, 1),
                item("vs", -7, -1, -1, false, 1),
                item("vs", -1, -1, Long.MAX_VALUE, false, 1))) {
            byte[] body = Item.encode(Wire.Type.LOADS, List.of(bad));
            assertThatThrownBy(() -> Item.decode(Wire.Type.LOADS, body, peer))
                    .isInstanceOf(Wire.ProtocolException.class)
                    .hasMessageContaining("out of range");
        }
        ServerLoad sent = new ServerLoad(5, 40.5, 60, 1.5, 1000, 20, 3, "vs over limit: connections 5 > 4", 1, "CNC");
        Item.LoadItem got = (Item.LoadItem) Item.decode(
                        Wire.Type.LOADS,
                        Item.encode(Wire.Type.LOADS, List.of(new Item.LoadItem("vs", sent, 1, 30_000))),
                        peer)
                .getFirst();
        assertThat(got.load())
                .as("the sender's data center from the pairing, the over-limit flag only")
                .isEqualTo(new ServerLoad(5, 40.5, 60, 1.5, 1000, 20, 3, "vs over limit, as measured by b", 1, "TEL"));
        assertThat(got.ttlMillis()).isEqualTo(30_000);
    }
}
