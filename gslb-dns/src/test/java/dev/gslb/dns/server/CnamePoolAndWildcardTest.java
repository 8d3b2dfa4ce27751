package dev.gslb.dns.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.wideip.CnameMembers;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.probe.Shell;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * CNAME pools (a wide IP answers a CNAME to a chosen name, for any type, and the chain goes on
 * here when the name is ours) and wildcard wide IPs (the closest encloser's wildcard, RFC 4592),
 * asked over real sockets with dnsjava, dig and kdig.
 */
class CnamePoolAndWildcardTest {
    /** A zone of its own beside the example one: a static name and an empty non-terminal below the wildcard. */
    private static final String ZONE = """
            $ORIGIN example.org.
            $TTL 3600
            @       IN SOA ns1.example.org. hostmaster.example.org. 1 3600 900 1209600 300
                    IN NS  ns1.example.org.
            ns1     IN A   192.0.2.1
            static.cdn IN A 192.0.2.50
            a.b.deep.cdn IN A 192.0.2.51
            link    IN CNAME web.example.org.
            img     IN CNAME x.cdn.example.org.
            """;

    @TempDir
    static Path dir;

    private static ExampleDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        Path zone = dir.resolve("example.org.zone");
        Files.writeString(zone, ZONE);
        DataCenter cnc = new DataCenter("CNC");
        MethodRegistry methods = ExampleDeployment.methods();
        List<WideIp> wideIps = new ArrayList<>();
        wideIps.add(wideIp("*.cdn.example.org.", servers(methods, "198.51.100.10", "2001:db8::10")));
        wideIps.add(wideIp("exact.cdn.example.org.", servers(methods, "198.51.100.20")));
        wideIps.add(wideIp("*.img.cdn.example.org.", servers(methods, "198.51.100.30")));
        wideIps.add(wideIp("web.example.org.", cnames(methods, "round-robin", Map.of("web.cdn-provider.example.", 1))));
        wideIps.add(
                wideIp("chain.example.org.", cnames(methods, "global-availability", Map.of("www.example.com.", 1))));
        wideIps.add(
                wideIp("static.example.org.", cnames(methods, "global-availability", Map.of("api.example.com.", 1))));
        wideIps.add(
                wideIp("*.edge.example.org.", cnames(methods, "round-robin", Map.of("edge.cdn-provider.example.", 1))));
        wideIps.add(wideIp(
                "ratio.example.org.",
                cnames(
                        methods,
                        "ratio",
                        new TreeMap<>(Map.of("a.cdn-provider.example.", 3, "b.cdn-provider.example.", 1)))));
        wideIps.add(
                wideIp("loop.example.org.", cnames(methods, "global-availability", Map.of("loop.example.org.", 1))));
        wideIps.add(ExampleDeployment.authority().wideIp(Name.fromString("www.example.com.")));
        Authority authority =
                new Authority(List.of(ZoneFile.load(ExampleDeployment.ZONE, null), ZoneFile.load(zone, null)), wideIps);
        deployment = new ExampleDeployment(ExampleDeployment.listener(2), AnswerSettings.DEFAULTS, authority);
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    private static WideIp wideIp(String name, Pool pool) throws Exception {
        return new WideIp(Name.fromString(name), List.of(pool), 30);
    }

    private static Pool servers(MethodRegistry methods, String... addresses) {
        List<VirtualServer> members = new ArrayList<>();
        for (String a : addresses) {
            members.add(new VirtualServer("vs-" + a, InetAddress.ofLiteral(a), new DataCenter("CNC")));
        }
        return new Pool("p-" + addresses[0], members, List.of(methods.create("global-availability")), 1, -1, List.of());
    }

    private static Pool cnames(MethodRegistry methods, String method, Map<String, Integer> targets) throws Exception {
        List<CnameTarget> list = new ArrayList<>();
        for (var e : targets.entrySet()) {
            list.add(new CnameTarget(Name.fromString(e.getKey()), e.getValue()));
        }
        return Pool.cname(
                "cname-" + method,
                List.of(methods.create(method), methods.create("none"), methods.create("none")),
                20,
                new CnameMembers(list));
    }

    enum Via {
        UDP,
        TCP
    }

    private static Message ask(Via via, String name, int type) throws Exception {
        SimpleResolver r = new SimpleResolver(deployment.address());
        r.setTCP(via == Via.TCP);
        r.setTimeout(Duration.ofSeconds(3));
        return r.send(Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
    }

    /** The answer section as "owner TTL TYPE rdata" lines. */
    private static List<String> answer(Message m) {
        return m.getSection(Section.ANSWER).stream()
                .map(r -> r.getName() + " " + r.getTTL() + " " + Type.string(r.getType()) + " " + r.rdataToString())
                .toList();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aCnamePoolAnswersACnameForEveryType(Via via) throws Exception {
        for (int type : new int[] {Type.A, Type.AAAA, Type.MX, Type.TXT, Type.CNAME, Type.ANY}) {
            Message m = ask(via, "web.example.org.", type);
            assertThat(m.getRcode()).as(Type.string(type)).isEqualTo(Rcode.NOERROR);
            assertThat(m.getHeader().getFlag(Flags.AA)).as(Type.string(type)).isTrue();
            assertThat(answer(m))
                    .as("%s: a CNAME with the pool's TTL", Type.string(type))
                    .containsExactly("web.example.org. 20 CNAME web.cdn-provider.example.");
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void theChainGoesOnIntoOurOwnWideIpAndStaticNames(Via via) throws Exception {
        assertThat(answer(ask(via, "chain.example.org.", Type.A)))
                .containsExactly(
                        "chain.example.org. 20 CNAME www.example.com.", "www.example.com. 30 A 202.106.83.177");
        assertThat(answer(ask(via, "static.example.org.", Type.AAAA)))
                .containsExactly(
                        "static.example.org. 20 CNAME api.example.com.",
                        "api.example.com. 3600 AAAA 2001:db8:0:0:0:0:0:10");
        Message mx = ask(via, "chain.example.org.", Type.MX);
        assertThat(answer(mx))
                .as("MX: the CNAME, then nothing at the wide IP")
                .containsExactly("chain.example.org. 20 CNAME www.example.com.");
        assertThat(mx.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(answer(ask(via, "link.example.org.", Type.A)))
                .as("a static CNAME into a CNAME pool's wide IP")
                .containsExactly(
                        "link.example.org. 3600 CNAME web.example.org.",
                        "web.example.org. 20 CNAME web.cdn-provider.example.");
        Message loop = ask(via, "loop.example.org.", Type.A);
        assertThat(loop.getRcode())
                .as("a CNAME pool naming its own wide IP ends")
                .isEqualTo(Rcode.NOERROR);
        assertThat(answer(loop)).isNotEmpty().allMatch(l -> l.startsWith("loop.example.org. 20 CNAME"));
    }

    @Test
    void theRatioMethodSharesAPoolsNamesByTheirRatio() throws Exception {
        Map<String, Integer> seen = new TreeMap<>();
        for (int i = 0; i < 8; i++) {
            String target = ask(Via.UDP, "ratio.example.org.", Type.A)
                    .getSection(Section.ANSWER)
                    .getFirst()
                    .rdataToString();
            seen.merge(target, 1, Integer::sum);
        }
        assertThat(seen)
                .containsExactly(Map.entry("a.cdn-provider.example.", 6), Map.entry("b.cdn-provider.example.", 2));
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aWildcardWideIpAnswersNamesBelowItOwnedByTheAskedName(Via via) throws Exception {
        record Case(String name, int type, String why, List<String> answer) {}
        for (Case c : List.of(
                new Case(
                        "Foo.CDN.example.org.",
                        Type.A,
                        "the owner is the asked name, as written",
                        List.of("Foo.CDN.example.org. 30 A 198.51.100.10")),
                new Case(
                        "x.y.cdn.example.org.",
                        Type.AAAA,
                        "several labels below",
                        List.of("x.y.cdn.example.org. 30 AAAA 2001:db8:0:0:0:0:0:10")),
                new Case(
                        "exact.cdn.example.org.",
                        Type.A,
                        "an exact wide IP wins",
                        List.of("exact.cdn.example.org. 30 A 198.51.100.20")),
                new Case(
                        "static.cdn.example.org.",
                        Type.A,
                        "a static name wins",
                        List.of("static.cdn.example.org. 3600 A 192.0.2.50")),
                new Case(
                        "a.img.cdn.example.org.",
                        Type.A,
                        "the closest encloser's wildcard: the longer one",
                        List.of("a.img.cdn.example.org. 30 A 198.51.100.30")),
                new Case(
                        "img.example.org.",
                        Type.A,
                        "a static CNAME into the wildcard",
                        List.of(
                                "img.example.org. 3600 CNAME x.cdn.example.org.",
                                "x.cdn.example.org. 30 A 198.51.100.10")),
                new Case(
                        "a.edge.example.org.",
                        Type.AAAA,
                        "a wildcard wide IP of a CNAME pool",
                        List.of("a.edge.example.org. 20 CNAME edge.cdn-provider.example.")))) {
            assertThat(answer(ask(via, c.name(), c.type()))).as(c.why()).containsExactlyElementsOf(c.answer());
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void belowAWildcardNodataAndNxdomainAreAsRfc4592(Via via) throws Exception {
        Message mx = ask(via, "foo.cdn.example.org.", Type.MX);
        assertThat(mx.getRcode())
                .as("a wildcard-matched name holds addresses only")
                .isEqualTo(Rcode.NOERROR);
        assertThat(mx.getSection(Section.ANSWER)).isEmpty();
        assertThat(mx.getSection(Section.AUTHORITY))
                .singleElement()
                .satisfies(r -> assertThat(r.getType()).isEqualTo(Type.SOA));
        for (String ent : List.of(
                "cdn.example.org.", "img.cdn.example.org.", "deep.cdn.example.org.", "b.deep.cdn.example.org.")) {
            Message m = ask(via, ent, Type.A);
            assertThat(m.getRcode())
                    .as("%s exists (an empty non-terminal): NODATA, not the wildcard", ent)
                    .isEqualTo(Rcode.NOERROR);
            assertThat(m.getSection(Section.ANSWER)).as(ent).isEmpty();
        }
        for (String gone :
                List.of("x.static.cdn.example.org.", "x.exact.cdn.example.org.", "c.b.deep.cdn.example.org.")) {
            Message m = ask(via, gone, Type.A);
            assertThat(m.getRcode())
                    .as("%s: its closest encloser has no wildcard", gone)
                    .isEqualTo(Rcode.NXDOMAIN);
        }
        assertThat(ask(via, "nothing.example.org.", Type.A).getRcode())
                .as("outside the wildcard")
                .isEqualTo(Rcode.NXDOMAIN);
    }

    @Test
    void digAndKdigSeeTheCnameAndTheWildcard() {
        String port = Integer.toString(deployment.address().getPort());
        String dig =
                Shell.run("dig", "+norec", "+tries=1", "+time=5", "-p", port, "@127.0.0.1", "web.example.org", "AAAA");
        assertThat(dig)
                .contains("status: NOERROR")
                .contains("flags: qr aa")
                .containsPattern("web\\.example\\.org\\.\\s+20\\s+IN\\s+CNAME\\s+web\\.cdn-provider\\.example\\.");
        String chain =
                Shell.run("kdig", "+retry=0", "+timeout=5", "-p", port, "@127.0.0.1", "+tcp", "chain.example.org", "A");
        assertThat(chain)
                .contains("status: NOERROR")
                .containsPattern("chain\\.example\\.org\\.\\s+20\\s+IN\\s+CNAME\\s+www\\.example\\.com\\.")
                .containsPattern("www\\.example\\.com\\.\\s+30\\s+IN\\s+A\\s+202\\.106\\.83\\.177");
        String wild =
                Shell.run("kdig", "+retry=0", "+timeout=5", "-p", port, "@127.0.0.1", "any-name.cdn.example.org", "A");
        assertThat(wild).containsPattern("any-name\\.cdn\\.example\\.org\\.\\s+30\\s+IN\\s+A\\s+198\\.51\\.100\\.10");
        String nx = Shell.run(
                "dig", "+norec", "+tries=1", "+time=5", "-p", port, "@127.0.0.1", "x.static.cdn.example.org", "A");
        assertThat(nx).contains("status: NXDOMAIN");
    }

    @Test
    void aCnamePoolRefusesMethodsThatNeedServerState() {
        MethodRegistry methods = ExampleDeployment.methods();
        for (String method : List.of("topology", "lowest-round-trip-time", "fallback-ip", "quality-of-service")) {
            assertThatThrownBy(() -> cnames(methods, method, Map.of("a.example.net.", 1)))
                    .as(method)
                    .hasMessageContaining("is a CNAME pool")
                    .hasMessageContaining(method + " cannot choose among them");
        }
    }

    @Test
    void aWildcardWideIpBelowADelegationIsRefused() throws Exception {
        Pool pool = servers(ExampleDeployment.methods(), "198.51.100.99");
        assertThatThrownBy(() -> new Authority(
                        List.of(ZoneFile.load(ExampleDeployment.ZONE, null)),
                        List.of(wideIp("*.sub.example.com.", pool))))
                .hasMessageContaining("wildcard wide IP *.sub.example.com. is at or below a delegation");
        assertThat(new InetSocketAddress(0).getPort()).isZero();
    }
}
