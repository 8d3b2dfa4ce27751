package dev.gslb.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A server is unavailable while a server it depends on is not, along a whole chain, and comes back with it. */
class DependsOnTest {
    static final DataCenter CNC = new DataCenter("CNC");

    static VirtualServer vs(String name, String address, String link, String... dependsOn) {
        return new VirtualServer(name, InetAddress.ofLiteral(address), CNC, 1, 0, link)
                .withDependsOn(List.of(dependsOn));
    }

    // listed dependents first: the order of decision is not the order of the file
    static final Site CHAIN = Site.numbered(
            List.of(
                    vs("web", "198.18.1.1", null, "app"),
                    vs("app", "198.18.1.2", null, "db"),
                    vs("db", "198.18.1.3", "CNC-1"),
                    vs("other", "198.18.1.4", null)),
            List.of(new Link("CNC-1", "CNC", -1)));

    static final VirtualServer WEB = CHAIN.servers().get(0);
    static final VirtualServer APP = CHAIN.servers().get(1);
    static final VirtualServer DB = CHAIN.servers().get(2);
    static final VirtualServer OTHER = CHAIN.servers().get(3);

    static SitePublisher allUp() {
        SitePublisher p = new SitePublisher(CHAIN, false, Clock.systemUTC());
        for (VirtualServer v : CHAIN.servers()) {
            p.localHealth(v.name(), HealthState.UP);
        }
        return p;
    }

    @Test
    void aDownDependencyTakesItsDependentsDownAlongTheChainAndTheyComeBackWithIt() {
        try (SitePublisher p = allUp()) {
            assertThat(p.state().at(WEB).available()).isTrue();
            p.localHealth("db", HealthState.DOWN);
            assertThat(p.state().at(DB).available()).isFalse();
            assertThat(p.state().at(APP).available()).isFalse();
            assertThat(p.state().at(APP).heldReason()).isEqualTo("depends on db, which is down");
            assertThat(p.state().at(WEB).available()).isFalse();
            assertThat(p.state().at(WEB).heldReason()).isEqualTo("depends on app, which depends on db, which is down");
            assertThat(p.state().at(WEB).health())
                    .as("its own monitors still say UP")
                    .isEqualTo(HealthState.UP);
            assertThat(p.state().at(OTHER).available()).isTrue();
            p.localHealth("db", HealthState.UP);
            assertThat(p.state().at(APP).available()).isTrue();
            assertThat(p.state().at(WEB).available()).isTrue();
            assertThat(p.state().at(WEB).heldReason()).isNull();
        }
    }

    @Test
    void aPeersViewOfTheDependencyWorksThroughTheSameRule() {
        try (SitePublisher p = new SitePublisher(CHAIN, false, Clock.systemUTC())) {
            p.localHealth("web", HealthState.UP);
            p.localHealth("app", HealthState.UP);
            p.peerHealth("db", HealthState.UP, Long.MAX_VALUE);
            assertThat(p.state().at(WEB).available()).isTrue();
            p.peerHealth("db", HealthState.DOWN, Long.MAX_VALUE);
            awaitPeerPublication(p, () -> !p.state().at(WEB).available());
            assertThat(p.state().at(APP).heldReason()).isEqualTo("depends on db, which is down");
        }
    }

    @Test
    void aDependencyNotCheckedYetHoldsItsDependentsWhereUnknownIsNotAnswered() {
        try (SitePublisher p = new SitePublisher(CHAIN, false, Clock.systemUTC())) {
            p.localHealth("app", HealthState.UP);
            assertThat(p.state().at(APP).heldReason()).isEqualTo("depends on db, which is not checked yet");
        }
        try (SitePublisher p = new SitePublisher(CHAIN, true, Clock.systemUTC())) {
            assertThat(p.state().at(WEB).available()).as("unknown answered").isTrue();
        }
    }

    @Test
    void waitingForResumeALinkDownAndDisabledCountButDrainedDoesNot() {
        try (SitePublisher p = allUp()) {
            p.waitingForResume("db", true);
            assertThat(p.state().at(APP).heldReason())
                    .isEqualTo("depends on db, which is down, waiting for manual resume");
            p.waitingForResume("db", false);
            p.localLink(new LinkState("CNC-1", HealthState.DOWN, -1, -1, null, 1, "a", "gateway down"));
            assertThat(p.state().at(APP).heldReason())
                    .isEqualTo("depends on db, which is unavailable: its link CNC-1 is down");
            p.localLink(new LinkState("CNC-1", HealthState.UP, -1, -1, null, 1, "a", "gateway up"));
            assertThat(p.state().at(APP).available()).isTrue();

            p.runtime(set(AdminState.DISABLED));
            assertThat(p.state().at(APP).available()).isFalse();
            assertThat(p.state().at(APP).heldReason()).isEqualTo("depends on db, which is disabled");
            assertThat(p.state().at(WEB).heldReason())
                    .isEqualTo("depends on app, which depends on db, which is disabled");

            p.runtime(set(AdminState.DRAINED));
            assertThat(p.state().at(APP).available())
                    .as("a drained server still serves")
                    .isTrue();
            assertThat(p.state().at(APP).answerable()).isTrue();
        }
    }

    @Test
    void aServerDependingOnTwoIsDownWhenEitherIs() {
        Site site = Site.numbered(
                List.of(
                        vs("web", "198.18.1.1", null, "db1", "db2"),
                        vs("db1", "198.18.1.2", null),
                        vs("db2", "198.18.1.3", null)),
                List.of());
        try (SitePublisher p = new SitePublisher(site, false, Clock.systemUTC())) {
            p.localHealth("web", HealthState.UP);
            p.localHealth("db1", HealthState.UP);
            p.localHealth("db2", HealthState.UP);
            VirtualServer web = site.servers().getFirst();
            assertThat(p.state().at(web).available()).isTrue();
            p.localHealth("db2", HealthState.DOWN);
            assertThat(p.state().at(web).heldReason()).isEqualTo("depends on db2, which is down");
        }
    }

    @Test
    void aCycleIsRefusedAndNamed() {
        List<VirtualServer> cycle = List.of(
                vs("a", "198.18.1.1", null, "b"), vs("b", "198.18.1.2", null, "c"), vs("c", "198.18.1.3", null, "a"));
        assertThat(Dependencies.cycle(cycle)).containsExactly("a", "b", "c", "a");
        assertThatThrownBy(() -> Site.numbered(cycle, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a -> b -> c -> a");
        List<VirtualServer> self = List.of(vs("x", "198.18.1.9", null), vs("a", "198.18.1.1", null, "a"));
        assertThat(Dependencies.cycle(self)).containsExactly("a", "a");
        assertThat(Dependencies.cycle(CHAIN.servers())).isEmpty();
        assertThatThrownBy(() -> Site.numbered(List.of(vs("a", "198.18.1.1", null, "nope")), List.of()))
                .hasMessageContaining("a depends on nope, which is not defined");
    }

    @Test
    void aLongChainIsDecidedInOnePassWithoutDeepRecursion() {
        int n = 50_000;
        List<VirtualServer> servers = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String address = "10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255);
            servers.add(i + 1 < n ? vs("s" + i, address, null, "s" + (i + 1)) : vs("s" + i, address, null));
        }
        Site site = Site.numbered(servers, List.of());
        try (SitePublisher p = new SitePublisher(site, true, Clock.systemUTC())) {
            assertThat(p.state().at(site.servers().getFirst()).available()).isTrue();
            p.localHealth("s" + (n - 1), HealthState.DOWN);
            assertThat(p.state().at(site.servers().getFirst()).available()).isFalse();
        }
    }

    static RuntimeStates set(AdminState state) {
        return RuntimeStates.NONE.with(
                new RuntimeTarget(RuntimeTarget.Kind.VS, "db"), new RuntimeState(state, "alice", 1, "", 0), "a", 1);
    }

    /** What a peer sends publishes at the end of a short interval: the publisher's own timer, not the test, decides when. */
    static void awaitPeerPublication(SitePublisher p, java.util.function.BooleanSupplier done) {
        long end = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(done.getAsBoolean()).as("published").isTrue();
    }
}
