package dev.gslb.dns.wideip;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.method.Candidates;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.Outcome;
import dev.gslb.dns.method.QueryContext;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;
import org.xbill.DNS.Type;

/**
 * A wide IP decided from paths notes its LDNS to the probes: a resolver that keeps asking is noted
 * once a second by each thread, another LDNS at once, and an explanation never.
 */
class LdnsNotingTest {
    /** Reads paths (so the LDNS is noted), picks the first candidate. */
    static final LoadBalancingMethod PATHS = new LoadBalancingMethod() {
        @Override
        public String name() {
            return "paths";
        }

        @Override
        public boolean usesPathMetrics() {
            return true;
        }

        @Override
        public Outcome decide(Candidates c, QueryContext q) {
            return c.pick(0);
        }
    };

    final List<String> noted = new ArrayList<>();
    final ProbeRequests probes = (hi, lo, now) -> noted.add(new Address(hi, lo) + " at " + now);
    final WideIpResolver resolver =
            new WideIpResolver(() -> SiteState.ALL_AVAILABLE, probes, new SimpleMeterRegistry());
    final WideIpResolver.Scratch s = new WideIpResolver.Scratch();

    @Test
    void aResolverAskingOverAndOverIsNotedOnceASecond() throws Exception {
        VirtualServer cnc = new VirtualServer("cnc1", InetAddress.ofLiteral("198.18.2.10"), new DataCenter("CNC"));
        Pool pool = new Pool("www", List.of(cnc), List.of(PATHS), 1, -1, List.of());
        WideIp www = new WideIp(Name.fromString("www.example.com."), List.of(pool), 30);
        long t0 = 1_800_000_000_000L;
        ask(www, "198.18.4.2", t0);
        ask(www, "198.18.4.2", t0 + 10);
        ask(www, "198.18.4.2", t0 + 999);
        assertThat(noted).as("within the second: once").containsExactly("198.18.4.2 at " + t0);
        ask(www, "198.18.5.2", t0 + 999);
        assertThat(noted).as("another LDNS: at once").hasSize(2).last().isEqualTo("198.18.5.2 at " + (t0 + 999));
        ask(www, "198.18.4.2", t0 + 1000);
        assertThat(noted).as("back to the first: it is noted again").hasSize(3);
        ask(www, "198.18.4.2", t0 + 2000);
        assertThat(noted).as("a second later").hasSize(4);
        ask(www, "198.18.4.2", t0 - 60_000);
        assertThat(noted)
                .as("the clock went back: noted, not silenced for a minute")
                .hasSize(5);

        Explanation.of(resolver, www, Type.A, InetAddress.ofLiteral("198.18.6.2"), null, 0, null);
        assertThat(noted).as("an explanation is not a query").hasSize(5);
        assertThat(s.result.count()).isEqualTo(1);
    }

    void ask(WideIp w, String ldns, long now) {
        s.query.set(Address.of(InetAddress.ofLiteral(ldns)), Type.A, now);
        resolver.resolve(w, s);
    }
}
