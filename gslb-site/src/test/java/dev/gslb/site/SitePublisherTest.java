package dev.gslb.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every availability rule, read back from the published state as the query path reads it. */
class SitePublisherTest {
    static final VirtualServer CNC1 =
            new VirtualServer("cnc1", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"), 1, 0, "CNC-1", 0);
    static final VirtualServer TEL1 =
            new VirtualServer("tel1", InetAddress.ofLiteral("198.18.3.10"), new DataCenter("TEL"), 1, 0, null, 1);
    static final Site SITE = new Site(List.of(CNC1, TEL1), List.of(new Link("CNC-1", "CNC", 1_000_000_000)));

    /** A clock the test moves. */
    static final class Hand extends Clock {
        volatile long millis = 1_000_000;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    static LinkState link(HealthState state, long in, long out, String overLimit) {
        return new LinkState("CNC-1", state, in, out, overLimit, 1, "a", "measured");
    }

    @Test
    void localHealthDecidesAndUnknownFollowsTheSetting() {
        try (SitePublisher answered = new SitePublisher(SITE, true, Clock.systemUTC());
                SitePublisher strict = new SitePublisher(SITE, false, Clock.systemUTC())) {
            assertThat(answered.state().at(CNC1).available())
                    .as("unknown answered")
                    .isTrue();
            assertThat(strict.state().at(CNC1).available())
                    .as("unknown not answered")
                    .isFalse();
            strict.localHealth("cnc1", HealthState.UP);
            answered.localHealth("cnc1", HealthState.DOWN);
            assertThat(strict.state().at(CNC1).available()).isTrue();
            assertThat(strict.state().at(CNC1).confirmedUp()).isTrue();
            assertThat(answered.state().at(CNC1).available()).isFalse();
            assertThat(answered.state().at(TEL1).available())
                    .as("the other server")
                    .isTrue();
        }
    }

    @Test
    void aServerWaitingForResumeIsNotAnsweredWhateverItsHealth() {
        try (SitePublisher p = new SitePublisher(SITE, true, Clock.systemUTC())) {
            p.localHealth("cnc1", HealthState.DOWN);
            p.peerHealth("cnc1", HealthState.UP, Long.MAX_VALUE);
            p.waitingForResume("cnc1", true);
            assertThat(p.state().at(CNC1).available()).isFalse();
            assertThat(p.state().at(CNC1).heldReason()).isEqualTo("down, waiting for manual resume");
            p.waitingForResume("cnc1", false);
            p.localHealth("cnc1", HealthState.UP);
            assertThat(p.state().at(CNC1).available()).as("resumed").isTrue();
            assertThat(p.state().at(CNC1).heldReason()).isNull();
        }
    }

    @Test
    void aPeerFillsUnknownUntilItsViewExpires() {
        Hand clock = new Hand();
        try (SitePublisher p = new SitePublisher(SITE, false, clock)) {
            p.peerHealth("tel1", HealthState.UP, clock.millis + 30_000);
            p.peerHealth("cnc1", HealthState.DOWN, clock.millis + 30_000);
            p.localHealth("cnc1", HealthState.UP);
            assertThat(p.state().at(TEL1).available()).as("fills unknown").isTrue();
            assertThat(p.state().health("cnc1")).as("a local UP wins").isEqualTo(HealthState.UP);
            assertThat(p.state().peerHealth("cnc1")).isEqualTo(HealthState.DOWN);
            clock.millis += 30_001;
            p.localHealth("cnc1", HealthState.DOWN); // any event publishes again
            assertThat(p.state().at(TEL1).available()).as("the view expired").isFalse();
            assertThat(p.state().peerHealth("tel1")).isEqualTo(HealthState.UNKNOWN);
        }
    }

    @Test
    void anExpiredPeerViewIsWithdrawnWithoutAnotherEvent() throws InterruptedException {
        try (SitePublisher p = new SitePublisher(SITE, false, Clock.systemUTC())) {
            p.peerHealth("tel1", HealthState.UP, System.currentTimeMillis() + 50);
            assertThat(p.state().at(TEL1).available()).isTrue();
            long end = System.nanoTime() + 5_000_000_000L;
            while (p.state().at(TEL1).available() && System.nanoTime() < end) {
                Thread.sleep(5); // waits for the publisher's own expiry timer, the behaviour under test
            }
            assertThat(p.state().at(TEL1).available())
                    .as("withdrawn by the expiry timer")
                    .isFalse();
        }
    }

    @Test
    void aPeerFlippingItsViewsPublishesAtMostOnceAnInterval() throws InterruptedException {
        try (SitePublisher p = new SitePublisher(SITE, true, Clock.systemUTC())) {
            long before = p.publications();
            long start = System.nanoTime();
            int items = 200_000; // a second of a compromised peer at the default item rate
            for (int i = 0; i < items; i++) {
                p.peerHealth(
                        "tel1", i % 2 == 0 ? HealthState.DOWN : HealthState.UP, System.currentTimeMillis() + 60_000);
            }
            long intervals = (System.nanoTime() - start) / (SitePublisher.PEER_PUBLISH_MILLIS * 1_000_000) + 1;
            assertThat(p.publications() - before)
                    .as("%d items in %d intervals", items, intervals)
                    .isLessThanOrEqualTo(intervals + 2); // the first at once, one per interval, one in flight
            long end = System.nanoTime() + 5_000_000_000L;
            while (p.state().peerHealth("tel1") != HealthState.UP && System.nanoTime() < end) {
                Thread.sleep(1); // the trailing publication is the publisher's own timer, the behaviour under test
            }
            assertThat(p.state().peerHealth("tel1"))
                    .as("the last view is published")
                    .isEqualTo(HealthState.UP);
        }
    }

    @Test
    void aLinkDownTakesItsServersAndAFullLinkSpillsThem() {
        try (SitePublisher p = new SitePublisher(SITE, true, Clock.systemUTC())) {
            p.localHealth("cnc1", HealthState.UP);
            p.localLink(link(HealthState.UP, 200_000_000, 700_000_000, null));
            assertThat(p.state().at(CNC1).answerable()).isTrue();
            assertThat(p.state().at(CNC1).headroomBps())
                    .as("capacity minus the busier direction")
                    .isEqualTo(300_000_000);
            p.localLink(link(HealthState.UP, 900_000_000, 0, "link CNC-1 over limit"));
            assertThat(p.state().at(CNC1).available()).isTrue();
            assertThat(p.state().at(CNC1).spillReason()).isEqualTo("link CNC-1 over limit");
            p.localLink(link(HealthState.DOWN, -1, -1, null));
            assertThat(p.state().at(CNC1).available())
                    .as("a link DOWN takes its servers")
                    .isFalse();
            assertThat(p.state().at(CNC1).headroomBps()).as("traffic unknown").isEqualTo(-1);
            assertThat(p.state().at(TEL1).available())
                    .as("no link: not affected")
                    .isTrue();
        }
    }

    @Test
    void theOwnMeasurementOfALinkWinsOverAPeers() {
        try (SitePublisher p = new SitePublisher(SITE, true, Clock.systemUTC())) {
            p.peerLink(link(HealthState.DOWN, -1, -1, null), System.currentTimeMillis() + 60_000);
            assertThat(p.state().at(CNC1).available()).isFalse();
            p.localLink(link(HealthState.UP, 1, 1, null));
            assertThat(p.state().at(CNC1).available()).isTrue();
            assertThat(p.state().link("CNC-1").measuredBy()).isEqualTo("a");
        }
    }

    @Test
    void aServerOfAnotherConfigurationGetsTheUnknownState() {
        try (SitePublisher p = new SitePublisher(SITE, false, Clock.systemUTC())) {
            p.localHealth("cnc1", HealthState.UP);
            VirtualServer moved = new VirtualServer(
                    "cnc1", InetAddress.ofLiteral("198.18.9.9"), new DataCenter("CNC"), 1, 0, "CNC-1", 0);
            assertThat(p.state().at(moved)).isEqualTo(ServerState.UNKNOWN_UNAVAILABLE);
            VirtualServer same = new VirtualServer(
                    "cnc1", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"), 1, 0, "CNC-1", 0);
            assertThat(p.state().at(same).available())
                    .as("an equal server of a reload")
                    .isTrue();
        }
    }

    @Test
    void aNewSiteKeepsThePeersViewsAndTakesTheMonitorsCurrentOnes() {
        try (SitePublisher p = new SitePublisher(SITE, false, Clock.systemUTC())) {
            p.peerHealth("tel1", HealthState.UP, System.currentTimeMillis() + 60_000);
            p.localHealth("cnc1", HealthState.UP);
            p.resite(SITE, name -> name.equals("cnc1") ? HealthState.DOWN : HealthState.UNKNOWN, name -> null);
            assertThat(p.state().at(CNC1).available()).isFalse();
            assertThat(p.state().at(TEL1).available()).isTrue();
        }
    }
}
