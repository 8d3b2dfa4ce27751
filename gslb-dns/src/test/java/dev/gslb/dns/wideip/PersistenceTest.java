package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.StaticPersistence;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.HealthState;
import dev.gslb.site.Site;
import dev.gslb.site.SitePublisher;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * A wide IP with a persistence-ttl under round robin (which alone would alternate): a client
 * network keeps its first answer for the TTL, moves only when that server is down, then keeps the
 * new one even after the first comes back; a peer's entry is taken, and two instances that
 * answered one network differently at once both keep the lesser server name.
 */
class PersistenceTest {
    static final VirtualServer A =
            new VirtualServer("a", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"), 1, 0, null, 0);
    static final VirtualServer B =
            new VirtualServer("b", InetAddress.ofLiteral("198.18.3.10"), new DataCenter("TEL"), 1, 0, null, 1);

    final SitePublisher site = new SitePublisher(new Site(List.of(A, B), List.of()), true, Clock.systemUTC());
    final PersistenceTable table = new PersistenceTable(StaticPersistence.Settings.DEFAULTS);
    final List<PersistenceTable.Entry> told = new ArrayList<>();
    final WideIpResolver resolver = new WideIpResolver(
            site::state, ProbeRequests.NONE, new SimpleMeterRegistry(), new AnswerStatistics(10), table);
    final WideIp www;

    PersistenceTest() throws Exception {
        TopologyTable empty = TopologyTable.build(List.of(), List.of(), Set.of("CNC", "TEL"));
        MethodRegistry methods = new MethodRegistry(new MethodRegistry.Services(
                new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC()),
                () -> empty,
                1,
                MethodSettings.DEFAULTS));
        Pool pool = new Pool("www", List.of(A, B), List.of(methods.create("round-robin")), 1, -1, List.of());
        www = new WideIp(
                Name.fromString("www.example.com."),
                List.of(pool),
                WideIp.PoolMethod.GLOBAL_AVAILABILITY,
                30,
                Failure.DEFAULT,
                false,
                60);
        table.onRecorded(told::add);
    }

    String answer(String ldns, long now) {
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        s.query.set(dev.gslb.topology.Address.of(InetAddress.ofLiteral(ldns)), Type.A, now);
        WideIpResolver.Result r = resolver.resolve(www, s);
        return r.answer(0).name();
    }

    @Test
    void aNetworkKeepsItsAnswerForTheTtl() {
        long t = 1_000_000;
        String first = answer("198.18.4.2", t);
        for (int i = 0; i < 5; i++) {
            assertThat(answer("198.18.4." + (10 + i), t + i))
                    .as("the same /24, within the TTL")
                    .isEqualTo(first);
        }
        assertThat(told).hasSize(1);
        String other = first.equals("a") ? "b" : "a";
        site.localHealth(first, HealthState.DOWN);
        assertThat(answer("198.18.4.2", t + 10))
                .as("its server is down: the method decides")
                .isEqualTo(other);
        site.localHealth(first, HealthState.UP);
        assertThat(answer("198.18.4.2", t + 20))
                .as("kept on the new one after the first is back")
                .isEqualTo(other);
        assertThat(answer("198.18.4.2", t + 60_000 + 30))
                .as("the TTL passed: round robin again")
                .isNotNull();
        assertThat(told).hasSize(3);
    }

    @Test
    void aPeersEntryIsTakenAndAClashSettlesOnTheLesserName() throws Exception {
        long t = 2_000_000;
        Name w = www.name();
        long[] net = network("198.18.5.1", t);
        long hi = net[0];
        long lo = net[1];
        table.received(new PersistenceTable.Entry(w, hi, lo, "b", t + 60_000), t);
        assertThat(answer("198.18.5.77", t)).isEqualTo("b");
        table.received(new PersistenceTable.Entry(w, hi, lo, "a", t + 60_000), t);
        assertThat(answer("198.18.5.77", t)).as("a < b: both sides keep a").isEqualTo("a");
        table.received(new PersistenceTable.Entry(w, hi, lo, "b", t + 60_000), t);
        assertThat(answer("198.18.5.77", t)).isEqualTo("a");
    }

    /** The /24 of {@code ip} in the 128-bit form: {hi, lo}. */
    private static long[] network(String ip, long t) {
        var q = new dev.gslb.dns.method.QueryContext()
                .set(dev.gslb.topology.Address.of(InetAddress.ofLiteral(ip)), Type.A, t);
        return new long[] {q.networkHi(24, 56), q.networkLo(24, 56)};
    }

    /** gslb persist clear: the entry goes here, the listener hears it as cleared, and a peer's copy goes too. */
    @Test
    void aClearedEntryGoesAndItsClearingRemovesThePeersCopy() throws Exception {
        long t = 3_000_000;
        Name w = www.name();
        long[] net = network("198.18.6.1", t);
        long hi = net[0];
        long lo = net[1];
        java.util.List<PersistenceTable.Entry> heard = new java.util.ArrayList<>();
        table.onRecorded(heard::add);
        table.record(w, hi, lo, "a", t + 60_000);
        PersistenceTable peer = new PersistenceTable(StaticPersistence.Settings.DEFAULTS);
        peer.received(heard.getFirst(), t);
        assertThat(peer.lookup(w, hi, lo, t)).isEqualTo("a");

        assertThat(table.clear(e -> e.wideIp().equals(w) && e.hi() == hi && e.lo() == lo, t))
                .isEqualTo(1);
        assertThat(table.lookup(w, hi, lo, t)).as("gone here").isNull();
        PersistenceTable.Entry cleared = heard.getLast();
        assertThat(cleared.server()).isEqualTo(PersistenceTable.CLEARED);
        peer.received(cleared, t);
        assertThat(peer.lookup(w, hi, lo, t)).as("gone on the peer").isNull();
        assertThat(table.clear(e -> true, t)).as("nothing left to clear").isZero();
    }
}
