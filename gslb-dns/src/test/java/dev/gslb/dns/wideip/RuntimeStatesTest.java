package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.Trace;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.AdminState;
import dev.gslb.site.DataCenter;
import dev.gslb.site.Link;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.RuntimeStates;
import dev.gslb.site.RuntimeTarget;
import dev.gslb.site.Site;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * Runtime states (README "Maintenance") decide as the README says: a disabled or drained server,
 * data center, link, member or pool gives no new answers under any pool method; a disabled wide IP
 * answers with its failure behaviour; a drained one, and a drained server, keep the networks that
 * persistence already sends there, a disabled one does not; a state set for a while ends by itself.
 */
class RuntimeStatesTest {
    static final VirtualServer A =
            new VirtualServer("a", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"), 1, 0, "cnc-link", 0);
    static final VirtualServer B =
            new VirtualServer("b", InetAddress.ofLiteral("198.18.3.10"), new DataCenter("TEL"), 1, 1, null, 1);
    static final VirtualServer C =
            new VirtualServer("c", InetAddress.ofLiteral("198.18.3.20"), new DataCenter("TEL"), 1, 0, null, 2);

    final SitePublisher site = new SitePublisher(
            new Site(List.of(A, B, C), List.of(new Link("cnc-link", "CNC", -1))), true, Clock.systemUTC());
    final WideIpResolver resolver = new WideIpResolver(
            site::state,
            ProbeRequests.NONE,
            new SimpleMeterRegistry(),
            new AnswerStatistics(10),
            new PersistenceTable(dev.gslb.dns.method.StaticPersistence.Settings.DEFAULTS));
    final MethodRegistry methods;
    RuntimeStates states = RuntimeStates.NONE;

    RuntimeStatesTest() throws Exception {
        TopologyTable empty = TopologyTable.build(List.of(), List.of(), Set.of("CNC", "TEL"));
        methods = new MethodRegistry(new MethodRegistry.Services(
                new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC()),
                () -> empty,
                1,
                MethodSettings.DEFAULTS));
    }

    @AfterEach
    void close() {
        site.close();
    }

    WideIp wideIp(String method, long persistTtl) throws Exception {
        Pool www = new Pool("www", List.of(A, B), List.of(methods.create(method)), 1, -1, List.of());
        Pool backup = new Pool("backup", List.of(C), List.of(methods.create("global-availability")), 1, -1, List.of());
        return new WideIp(
                Name.fromString("www.example.com."),
                List.of(www, backup),
                WideIp.PoolMethod.GLOBAL_AVAILABILITY,
                30,
                Failure.DEFAULT,
                false,
                persistTtl);
    }

    void set(RuntimeTarget.Kind kind, String name, AdminState state, long untilMillis) {
        long now = System.currentTimeMillis();
        states = states.with(
                new RuntimeTarget(kind, name),
                state == AdminState.ENABLED
                        ? null
                        : new RuntimeState(state, "alice", now, "kernel upgrade", untilMillis),
                "here",
                now);
        site.runtime(states);
    }

    void set(RuntimeTarget.Kind kind, String name, AdminState state) {
        set(kind, name, state, 0);
    }

    WideIpResolver.Result resolve(WideIp w, String ldns, Trace trace) {
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        s.query.set(Address.of(InetAddress.ofLiteral(ldns)), Type.A, System.currentTimeMillis());
        s.query.trace(trace);
        return resolver.resolve(w, s);
    }

    /** The servers answered to 40 LDNS of 40 networks (null for the failure behaviour). */
    Set<String> answered(WideIp w) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            WideIpResolver.Result r = resolve(w, "198.18." + (10 + i) + ".1", null);
            names.add(
                    r.count() > 0
                            ? r.answer(0).name()
                            : r.outcome() == null ? null : r.outcome().name());
        }
        return names;
    }

    static List<String> methodsThatPick() {
        return MethodRegistry.names().stream()
                .filter(m -> !Set.of("fallback-ip", "return-to-dns", "drop-packet", "none")
                        .contains(m))
                .toList();
    }

    @ParameterizedTest
    @MethodSource("methodsThatPick")
    void aDisabledServerIsNeverAnsweredWhateverTheMethod(String method) throws Exception {
        WideIp w = wideIp(method, 0);
        set(RuntimeTarget.Kind.VS, "a", AdminState.DISABLED);
        assertThat(answered(w)).doesNotContain("a");
        set(RuntimeTarget.Kind.VS, "a", AdminState.ENABLED);
        set(RuntimeTarget.Kind.MEMBER, "www/b", AdminState.DRAINED);
        assertThat(answered(w)).as("a drained member, no persistence").doesNotContain("b");
    }

    @ParameterizedTest
    @EnumSource(
            value = RuntimeTarget.Kind.class,
            names = {"VS", "DATACENTER", "LINK", "MEMBER"})
    void whatContainsAServerTakesItOut(RuntimeTarget.Kind kind) throws Exception {
        WideIp w = wideIp("global-availability", 0);
        assertThat(answered(w)).containsExactly("a");
        String name = switch (kind) {
            case VS -> "a";
            case DATACENTER -> "CNC";
            case LINK -> "cnc-link";
            default -> "www/a";
        };
        set(kind, name, AdminState.DISABLED);
        assertThat(answered(w)).containsExactly("b");
        set(kind, name, AdminState.ENABLED);
        assertThat(answered(w)).containsExactly("a");
    }

    @Test
    void aDisabledOrDrainedPoolPassesToTheNext() throws Exception {
        WideIp w = wideIp("global-availability", 0);
        set(RuntimeTarget.Kind.POOL, "www", AdminState.DRAINED);
        assertThat(answered(w)).containsExactly("c");
        set(RuntimeTarget.Kind.POOL, "backup", AdminState.DISABLED);
        assertThat(answered(w)).as("no pool left: the failure behaviour").containsExactly((String) null);
    }

    @Test
    void aDisabledWideIpAnswersWithItsFailureBehaviourAndTheExplanationSaysWhy() throws Exception {
        WideIp w = wideIp("global-availability", 0);
        set(RuntimeTarget.Kind.WIDEIP, "WWW.example.com", AdminState.DISABLED);
        Trace trace = new Trace();
        WideIpResolver.Result r = resolve(w, "198.18.9.1", trace);
        assertThat(r.outcome()).isNull();
        assertThat(r.failure()).isEqualTo(Failure.DEFAULT);
        assertThat(trace.steps())
                .anyMatch(s -> s.detail().contains("disabled by alice at")
                        && s.detail().contains("kernel upgrade"));
    }

    @Test
    void theExplanationListsADisabledMemberWithWhoAndWhy() throws Exception {
        WideIp w = wideIp("global-availability", 0);
        set(RuntimeTarget.Kind.VS, "a", AdminState.DISABLED);
        Trace trace = new Trace();
        resolve(w, "198.18.9.1", trace);
        assertThat(trace.steps())
                .anyMatch(s -> s.topic().equals("candidates")
                        && s.detail().startsWith("www: a ")
                        && s.detail().contains("disabled by alice at")
                        && s.detail().endsWith(": kernel upgrade"));
    }

    @Test
    void drainedKeepsWhatPersistenceSendsThereAndDisabledDoesNot() throws Exception {
        WideIp w = wideIp("global-availability", 300);
        assertThat(resolve(w, "198.18.20.1", null).answer(0).name()).isEqualTo("a");
        set(RuntimeTarget.Kind.VS, "a", AdminState.DRAINED);
        assertThat(resolve(w, "198.18.20.7", null).answer(0).name())
                .as("the same network, persisted to a")
                .isEqualTo("a");
        assertThat(resolve(w, "198.18.21.1", null).answer(0).name())
                .as("a new network")
                .isEqualTo("b");
        set(RuntimeTarget.Kind.VS, "a", AdminState.DISABLED);
        assertThat(resolve(w, "198.18.20.7", null).answer(0).name())
                .as("disabled: even the persisted network moves")
                .isEqualTo("b");
    }

    @Test
    void aDrainedWideIpKeepsPersistedNetworksAndFailsNewOnes() throws Exception {
        WideIp w = wideIp("global-availability", 300);
        assertThat(resolve(w, "198.18.30.1", null).answer(0).name()).isEqualTo("a");
        set(RuntimeTarget.Kind.WIDEIP, "www.example.com.", AdminState.DRAINED);
        assertThat(resolve(w, "198.18.30.2", null).count()).isEqualTo(1);
        assertThat(resolve(w, "198.18.31.1", null).outcome())
                .as("a new network")
                .isNull();
        set(RuntimeTarget.Kind.WIDEIP, "www.example.com.", AdminState.DISABLED);
        assertThat(resolve(w, "198.18.30.2", null).outcome()).isNull();
    }

    @Test
    void aStateSetForAWhileEndsByItself() throws Exception {
        WideIp w = wideIp("global-availability", 0);
        set(RuntimeTarget.Kind.VS, "a", AdminState.DISABLED, System.currentTimeMillis() + 200);
        assertThat(answered(w)).containsExactly("b");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!answered(w).contains("a") && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // the publisher's timer publishes again when the state ends
        }
        assertThat(answered(w)).containsExactly("a");
    }
}
