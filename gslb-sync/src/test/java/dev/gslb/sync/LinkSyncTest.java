package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.link.Bandwidth;
import dev.gslb.probe.link.LinkSpec;
import dev.gslb.probe.link.TrafficSource;
import dev.gslb.probe.link.TrafficSpec;
import dev.gslb.site.HealthState;
import dev.gslb.site.LinkState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Link state and traffic travel between paired instances with their TTL, and a link has one
 * writer: the instance in its data center. A peer's item about another data center's link is
 * dropped. The traffic source is scripted (the real sources have their own test); the sync is real.
 */
class LinkSyncTest {
    @TempDir
    java.nio.file.Path dir;

    /** Counters that grow at {@code bitsPerSecond}, whenever they are read. */
    static final class Scripted implements TrafficSource {
        private long octets;
        private long at = System.nanoTime();
        volatile long bitsPerSecond;

        @Override
        public synchronized Counters read(Duration timeout) {
            long now = System.nanoTime();
            octets += (now - at) * bitsPerSecond / 8 / 1_000_000_000L;
            at = now;
            return new Counters(octets, 0, 0);
        }

        @Override
        public String describe() {
            return "scripted";
        }
    }

    static LinkSpec link(String name, String dc, TrafficSource source) {
        Bandwidth limit = Bandwidth.parse("8Mbit");
        return new LinkSpec(
                name,
                dc,
                Bandwidth.parse("10Mbit"),
                limit,
                null,
                LinkSpec.defaultResume(limit),
                null,
                source == null ? null : new TrafficSpec(source, Duration.ofMillis(100), Duration.ofMillis(200)),
                List.of(),
                List.of());
    }

    static Node node(String name, String dc, String ip, java.nio.file.Path dir, List<LinkSpec> links) throws Exception {
        return Node.on(name, dc, ip, dir, s -> s, 1_000_000, links, RuntimeStateExchange.NONE);
    }

    @Test
    void eachInstanceKnowsEveryLinkMeasuredByTheInstanceOnIt() throws Exception {
        Scripted cncTraffic = new Scripted();
        cncTraffic.bitsPerSecond = 20_000_000; // over the 8 Mbit/s limit
        List<LinkSpec> aLinks = List.of(link("CNC-1", "CNC", cncTraffic), link("TEL-1", "TEL", null));
        List<LinkSpec> bLinks = List.of(link("CNC-1", "CNC", null), link("TEL-1", "TEL", new Scripted()));
        try (Node a = node("a", "CNC", "127.0.0.2", dir, aLinks);
                Node b = node("b", "TEL", "127.0.0.3", dir, bLinks)) {
            Node.pair(a, b);
            Awaits.until(
                    "b holding CNC-1 over its limit",
                    Duration.ofSeconds(5),
                    () -> b.site.state().link("CNC-1") != null
                            && b.site.state().link("CNC-1").overLimit());
            LinkState seen = b.site.state().link("CNC-1");
            assertThat(seen.measuredBy()).isEqualTo("a");
            assertThat(seen.overLimitReason()).matches("link CNC-1 over limit: in \\d+\\.\\d Mbit/s > 8\\.00 Mbit/s");
            assertThat(seen.inBps())
                    .as("over the 8 Mbit/s limit (the rate arithmetic has its own exact test)")
                    .isGreaterThan(8_000_000L);
            assertThat(a.links.local("TEL-1"))
                    .as("a does not measure TEL's link")
                    .isNull();
            Awaits.until(
                    "a holding TEL-1",
                    Duration.ofSeconds(5),
                    () -> a.site.state().link("TEL-1") != null);
            assertThat(a.site.state().link("TEL-1").measuredBy()).isEqualTo("b");

            cncTraffic.bitsPerSecond = 80_000; // under resume
            Awaits.until(
                    "b holding CNC-1 back under its limit",
                    Duration.ofSeconds(5),
                    () -> !b.site.state().link("CNC-1").overLimit());
            assertThat(b.site.state().link("CNC-1").inBps()).isLessThan(1_000_000);
        }
    }

    @Test
    void aPeerCannotWriteAnotherDataCentersLink() throws Exception {
        List<LinkSpec> links = List.of(link("CNC-1", "CNC", null), link("TEL-1", "TEL", null));
        try (Node a = node("a", "CNC", "127.0.0.2", dir, links);
                Node b = node("b", "TEL", "127.0.0.3", dir, links)) {
            Node.pair(a, b);
            long now = System.currentTimeMillis();
            try (PeerSyncTest.Session s = a.speakAs(b)) { // the test speaks as b from here on
                double dropped = a.registry.get("sync_items_dropped").counter().count();
                s.send(
                        Wire.Type.LINKS,
                        Item.encode(
                                Wire.Type.LINKS,
                                List.of(
                                        new Item.LinkItem("CNC-1", HealthState.DOWN, -1, -1, false, "", now, 30_000),
                                        new Item.LinkItem("NOPE", HealthState.DOWN, -1, -1, false, "", now, 30_000),
                                        new Item.LinkItem(
                                                "TEL-1",
                                                HealthState.DOWN,
                                                5,
                                                6,
                                                true,
                                                "gateway 198.18.3.1: no echo reply",
                                                now,
                                                30_000))));
                Awaits.until(
                        "TEL-1 DOWN on a",
                        Duration.ofSeconds(3),
                        () -> a.site.state().link("TEL-1") != null
                                && a.site.state().link("TEL-1").state() == HealthState.DOWN);
                assertThat(a.site.state().link("TEL-1").state()).isEqualTo(HealthState.DOWN);
                assertThat(a.site.state().link("TEL-1").overLimit()).isTrue();
                assertThat(a.site.state().link("TEL-1").reason()).isEqualTo("gateway 198.18.3.1: no echo reply");
                assertThat(a.site.state().link("CNC-1").state())
                        .as("a's own link: b's word does not count")
                        .isEqualTo(HealthState.UNKNOWN);
                assertThat(a.registry.get("sync_items_dropped").counter().count())
                        .isEqualTo(dropped + 2);
            }
        }
    }
}
