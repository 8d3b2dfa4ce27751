package dev.gslb.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A server over its own load limit is set aside as a full link's servers are (available, but a
 * candidate only when no other is left); this instance's measurement wins over a peer's, and a
 * server it stops measuring goes back to the peers' view.
 */
class ServerLoadSpillTest {
    static ServerLoad load(long connections, String over, long at, String by) {
        return new ServerLoad(connections, -1, -1, -1, -1, -1, -1, over, at, by);
    }

    @Test
    void aServerOverItsLoadLimitSpillsUntilItIsBackUnder() {
        try (SitePublisher site = new SitePublisher(SitePublisherTest.SITE, true, Clock.systemUTC())) {
            site.localHealth("tel1", HealthState.UP);
            String reason = "tel1 over limit: connections 5200 > 5000";
            site.localLoad("tel1", load(5200, reason, 1, "TEL"));
            ServerState s = site.state().at(SitePublisherTest.TEL1);
            assertThat(s.available()).as("still up: it is set aside, not down").isTrue();
            assertThat(s.answerable()).isFalse();
            assertThat(s.spillReason()).isEqualTo(reason);
            assertThat(s.load().connections()).isEqualTo(5200);

            site.localLoad("tel1", load(4400, null, 2, "TEL"));
            assertThat(site.state().at(SitePublisherTest.TEL1).answerable()).isTrue();
            assertThat(site.state().at(SitePublisherTest.TEL1).spillReason()).isNull();
        }
    }

    @Test
    void thePeerOfItsDataCenterSetsItAsideUntilThatViewExpires() {
        SitePublisherTest.Hand clock = new SitePublisherTest.Hand();
        try (SitePublisher site = new SitePublisher(SitePublisherTest.SITE, true, clock)) {
            site.localHealth("tel1", HealthState.UP);
            site.peerLoad(
                    "tel1",
                    load(9000, "tel1 over limit: connections 9000 > 5000", clock.millis, "TEL"),
                    clock.millis + 30_000);
            assertThat(site.state().at(SitePublisherTest.TEL1).spillReason()).contains("9000 > 5000");
            site.localLoad("tel1", load(10, null, clock.millis, "TEL"));
            assertThat(site.state().at(SitePublisherTest.TEL1).spillReason())
                    .as("this instance's own measurement wins")
                    .isNull();
            site.localLoad("tel1", ServerLoad.UNKNOWN); // it stopped polling it (a reload)
            assertThat(site.state().at(SitePublisherTest.TEL1).load().connections())
                    .as("back to the peer's view")
                    .isEqualTo(9000);
            clock.millis += 31_000;
            site.localHealth("cnc1", HealthState.UP); // any event publishes again
            assertThat(site.state().at(SitePublisherTest.TEL1).load())
                    .as("an expired view is no measurement")
                    .isEqualTo(ServerLoad.UNKNOWN);
            assertThat(site.state().at(SitePublisherTest.TEL1).answerable()).isTrue();
        }
    }
}
