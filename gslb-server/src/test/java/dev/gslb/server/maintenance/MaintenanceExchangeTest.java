package dev.gslb.server.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.site.AdminState;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.RuntimeStates;
import dev.gslb.site.RuntimeTarget;
import dev.gslb.site.SitePublisher;
import dev.gslb.sync.RuntimeStateExchange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a peer offers: the newer generation is taken (of two alike, the greater origin's), kept and
 * applied and told to the listener with the peer's name; an older one, one whose content does not
 * match its offer, one with too many states, or one that is not JSON changes nothing.
 */
class MaintenanceExchangeTest {
    final SitePublisher site;
    final Maintenance maintenance;
    final List<String> heard = new ArrayList<>();
    final List<String> resumed = new ArrayList<>();

    MaintenanceExchangeTest() throws Exception {
        Path d = Files.createTempDirectory("maintenance");
        Files.copy(Path.of("../zones/example.com.zone"), d.resolve("example.com.zone"));
        GslbConfig c = ConfigLoader.parse("test.yaml", """
                zones: [{file: example.com.zone}]
                datacenters: [CNC, TEL]
                virtual-servers:
                  - {name: cnc, address: 127.0.1.1, datacenter: CNC}
                  - {name: tel, address: 127.0.1.2, datacenter: TEL}
                pools:
                  - {name: www, members: [cnc, tel]}
                wide-ips:
                  - {name: www.example.com, pools: [www]}
                """, d);
        site = new SitePublisher(c.site(), true, Clock.systemUTC());
        maintenance = new Maintenance(d, "gslb-a", site, () -> c, Clock.systemUTC());
        maintenance.attach(
                () -> {},
                (by, fromPeer, changes) -> heard.add(by + " " + fromPeer + " " + changes),
                (server, at) -> resumed.add(server + "@" + at));
    }

    @AfterEach
    void close() {
        site.close();
    }

    static RuntimeStateExchange.Offer offer(long generation, String origin, String server) {
        RuntimeStates s = new RuntimeStates(
                generation,
                origin,
                Map.of(
                        new RuntimeTarget(RuntimeTarget.Kind.VS, server),
                        new RuntimeState(AdminState.DISABLED, "bob", 1_000, "why", 0)));
        return new RuntimeStateExchange.Offer(generation, origin, RuntimeStatesCodec.encode(s));
    }

    AdminState cnc() {
        return site.state().at(site.state().site().servers().get(0)).admin();
    }

    @Test
    void theNewerGenerationWinsAndTheGreaterOriginOfTwoAlike() {
        maintenance.received("gslb-b", offer(3, "gslb-b", "cnc"));
        assertThat(cnc()).isEqualTo(AdminState.DISABLED);
        assertThat(maintenance.generation()).isEqualTo(3);
        assertThat(heard).containsExactly("gslb-b true [Change[target=vs cnc, before=enabled, after=disabled]]");
        maintenance.received("gslb-b", offer(2, "gslb-b", "tel"));
        assertThat(maintenance.view().states()).extracting(e -> e.name()).containsExactly("cnc");
        maintenance.received("gslb-a0", offer(3, "gslb-a0", "tel"));
        assertThat(maintenance.view().states())
                .as("gslb-a0 < gslb-b")
                .extracting(e -> e.name())
                .containsExactly("cnc");
        maintenance.received("gslb-c", offer(3, "gslb-c", "tel"));
        assertThat(maintenance.view().states()).extracting(e -> e.name()).containsExactly("tel");
        assertThat(cnc()).isEqualTo(AdminState.ENABLED);
        assertThat(maintenance.generations().peers()).containsEntry("gslb-c", 3L);
    }

    @Test
    void aManualResumeGoesToThePeersAndIsNotAState() throws Exception {
        maintenance.resumed("cnc", "alice");
        RuntimeStateExchange.Offer mine = maintenance.current();
        assertThat(mine.generation()).isEqualTo(1);
        assertThat(maintenance.view().states()).as("not listed as a state").isEmpty();
        assertThat(cnc()).isEqualTo(AdminState.ENABLED);

        RuntimeStates theirs = RuntimeStatesCodec.decode(mine.states());
        long at =
                theirs.get(new RuntimeTarget(RuntimeTarget.Kind.RESUME, "cnc")).atMillis();
        maintenance.received(
                "gslb-b",
                new RuntimeStateExchange.Offer(
                        2, "gslb-b", RuntimeStatesCodec.encode(new RuntimeStates(2, "gslb-b", theirs.states()))));
        assertThat(resumed).as("the peer's resume applied here").containsExactly("cnc@" + at);
        assertThat(heard)
                .as("audited by the health monitor, not as a state change")
                .containsExactly("gslb-b true []");
    }

    @Test
    void aBadOfferChangesNothing() {
        maintenance.received(
                "gslb-b", new RuntimeStateExchange.Offer(5, "gslb-b", "{not json".getBytes(StandardCharsets.UTF_8)));
        RuntimeStateExchange.Offer o = offer(4, "gslb-b", "cnc");
        maintenance.received("gslb-b", new RuntimeStateExchange.Offer(9, "gslb-b", o.states()));
        maintenance.received("gslb-b", new RuntimeStateExchange.Offer(4, "gslb-x", o.states()));
        StringBuilder many = new StringBuilder("{\"generation\": 7, \"origin\": \"gslb-b\", \"states\": [");
        for (int i = 0; i <= RuntimeStatesCodec.MAX_STATES; i++) {
            many.append(i == 0 ? "" : ",")
                    .append("{\"kind\":\"vs\",\"name\":\"s")
                    .append(i)
                    .append("\",\"state\":\"disabled\",\"by\":\"x\",\"at\":\"2026-12-01T00:00:00Z\"}");
        }
        maintenance.received(
                "gslb-b",
                new RuntimeStateExchange.Offer(
                        7, "gslb-b", many.append("]}").toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(maintenance.generation()).isZero();
        assertThat(heard).isEmpty();
        assertThat(cnc()).isEqualTo(AdminState.ENABLED);
    }

    @Test
    void theCodecRefusesWhatItCannotMean() {
        assertThatThrownBy(() -> RuntimeStatesCodec.decode(
                        "{\"generation\":1,\"origin\":\"a\",\"states\":[{\"kind\":\"rack\",\"name\":\"x\",\"state\":\"disabled\",\"by\":\"a\",\"at\":\"2026-12-01T00:00:00Z\"}]}"
                                .getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("kind must be one of");
        assertThatThrownBy(() -> RuntimeStatesCodec.decode(
                        "{\"generation\":1,\"origin\":\"a\",\"states\":[{\"kind\":\"vs\",\"name\":\"x\",\"state\":\"enabled\",\"by\":\"a\",\"at\":\"2026-12-01T00:00:00Z\"}]}"
                                .getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("state must be disabled or drained");
        assertThatThrownBy(() -> RuntimeStatesCodec.decode(
                        "{\"generation\":1,\"origin\":\"a\",\"states\":[{\"kind\":\"vs\",\"name\":\"x\",\"state\":\"drained\",\"by\":\"a\",\"at\":\"yesterday\"}]}"
                                .getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("not a time");
        assertThatThrownBy(() -> RuntimeStatesCodec.decode(
                        "{\"generation\":1,\"origin\":\"a\",\"states\":[{\"kind\":\"vs\",\"name\":\"x\",\"state\":\"drained\",\"by\":\"a\",\"at\":\"2026-12-01T00:00:00Z\",\"reason\":\"ok\\n2026 forged line\\u001b[2J\"}]}"
                                .getBytes(StandardCharsets.UTF_8)))
                .as("a reason that would forge a log line or redraw the terminal")
                .hasMessageContaining("without control characters");
        RuntimeStatesCodec.decode(offer(1, "a", "cnc").states());
    }
}
