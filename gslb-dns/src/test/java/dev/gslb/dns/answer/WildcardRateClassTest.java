package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * Every name a wildcard wide IP answers is rate-limited in one class, its own name's, as a zone's
 * wildcard answers are: random names below it cannot each open a class of their own.
 */
class WildcardRateClassTest {
    @Test
    void namesBelowAWildcardShareItsClassAndAnExactWideIpKeepsTheQuestions() throws Exception {
        Pool pool = ExampleDeployment.edgePool("edge", "198.51.100.10");
        WideIp wild = new WideIp(Name.fromString("*.edge.example.com."), List.of(pool), 30);
        Authority authority = ExampleDeployment.authority(List.of(wild));
        QueryView a = view("a.edge.example.com.");
        QueryView b = view("x.y.edge.example.com.");
        assertThat(authority.exactWideIp(a)).isNull();
        assertThat(authority.wildcardWideIp(a)).isSameAs(wild);
        assertThat(authority.wildcardWideIp(b)).isSameAs(wild);
        assertThat(authority.rateName(wild, a))
                .isEqualTo(authority.rateName(wild, b))
                .isEqualTo(WireName.hash(wild.name()))
                .isNotEqualTo(a.qnameHash);
        QueryView www = view("www.example.com.");
        assertThat(authority.rateName(authority.exactWideIp(www), www)).isEqualTo(www.qnameHash);
    }

    private static QueryView view(String name) throws Exception {
        byte[] wire = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN))
                .toWire();
        QueryView q = new QueryView();
        assertThat(q.read(wire, wire.length, Transport.UDP)).isEqualTo(QueryView.Verdict.ANSWER);
        return q;
    }
}
