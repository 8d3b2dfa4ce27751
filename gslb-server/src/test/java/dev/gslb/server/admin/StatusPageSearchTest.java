package dev.gslb.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.proximity.Path;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The page needs no token, so its searches (each a walk over the whole table) are rationed: at
 * most two at once, the rest get 503; the first page of everything is no walk and always served,
 * a later page is a walk.
 */
class StatusPageSearchTest {
    @Test
    void searchesBeyondTheBoundAreRefusedNotQueued() throws Exception {
        ProximityTable table = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        table.recordPath(
                Address.parse("198.18.4.2"),
                Path.of("CNC", 1000, 10_000, 0, ProbeProtocol.DNS_DOT, System.currentTimeMillis(), "t"));
        StatusPage page = new StatusPage(new StatusPage.Sources(
                "a", "CNC", List.of("CNC"), null, null, null, null, null, table, null, null, null, null));
        // with nothing in it (the wide IP each row is sent to needs a server: not here)
        StatusPage empty = new StatusPage(new StatusPage.Sources(
                "a",
                "CNC",
                List.of("CNC"),
                null,
                null,
                null,
                null,
                null,
                new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC()),
                null,
                null,
                null,
                null));
        empty.searches.acquire(StatusPage.MAX_SEARCHES);
        assertThat(page.search("198.18.9.", 0, 25).status())
                .as("a search that matches nothing")
                .isEqualTo(200);
        page.searches.acquire(StatusPage.MAX_SEARCHES); // two searches under way
        try {
            var busy = page.search("198.18.", 0, 25);
            assertThat(busy.status()).isEqualTo(503);
            assertThat(busy.body()).contains("too many searches at once");
            assertThat(empty.search("", 0, 25).status())
                    .as("the first page of everything walks nothing")
                    .isEqualTo(200);
            assertThat(page.search("", 1_000_000, 25).status())
                    .as("a page far down the table is a walk like a search")
                    .isEqualTo(503);
        } finally {
            page.searches.release(StatusPage.MAX_SEARCHES);
        }
        assertThat(page.search("198.18.9.", 0, 25).status()).isEqualTo(200);
    }
}
