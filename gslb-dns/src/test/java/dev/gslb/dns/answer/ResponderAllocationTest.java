package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.dnstap.Dnstap;
import dev.gslb.dns.dnstap.DnstapSettings;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.wideip.AnswerCounts;
import dev.gslb.dns.wideip.CnameMembers;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The fast path allocates nothing once warm: a cached static answer, and around a wide IP's
 * decision the answer of A or AAAA records, to an IPv4 and an IPv6 client given as their two longs
 * (what bench/profile.sh measures in the server under load, here on one thread).
 */
class ResponderAllocationTest {
    @Test
    void aCachedStaticAnswerAllocatesNothingAndAWideIpAnswerNoMoreThanItsDecision() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MethodRegistry methods = ExampleDeployment.methods();
        Pool pool = new Pool(
                "v6",
                List.of(new VirtualServer("vs6", InetAddress.ofLiteral("2001:db8::80"), new DataCenter("CNC"))),
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                1,
                -1,
                List.of());
        WideIp v6 = new WideIp(Name.fromString("v6.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
        Authority authority = ExampleDeployment.authority(List.of(v6));
        WideIpResolver resolver = ExampleDeployment.resolver(registry);
        Responder responder = responder(authority, resolver, registry);
        Responder.Worker worker = responder.worker();
        ByteBuf out = Unpooled.buffer(4096);
        Address v4 = Address.parse("127.0.0.1");
        Address v6Client = Address.parse("::1");
        byte[] api = query("api.example.com.", Type.A);
        byte[] www = query("www.example.com.", Type.A);
        byte[] v6Wide = query("v6.example.com.", Type.AAAA);
        assertThat(answerTypes(responder, worker, api, out)).containsOnly(Type.A);
        assertThat(answerTypes(responder, worker, www, out)).containsOnly(Type.A);
        assertThat(answerTypes(responder, worker, v6Wide, out)).containsOnly(Type.AAAA);

        WideIp wwwIp = authority.wideIp(Name.fromString("www.example.com."));
        WideIpResolver.Scratch bare = new WideIpResolver.Scratch();
        AnswerCounts counts = AnswerCounts.of(authority.wideIps().values(), 100, null);
        AnswerCounts.Recent counted = new AnswerCounts.Recent();
        long[] bytes = leastBytes(
                () -> respond(responder, worker, api, v4, out),
                () -> respond(responder, worker, api, v6Client, out),
                () -> respond(responder, worker, www, v4, out),
                () -> respond(responder, worker, v6Wide, v6Client, out),
                () -> {
                    bare.query.set(v4.hi(), v4.lo(), Type.A, NOW);
                    resolver.resolve(wwwIp, bare);
                },
                () -> counts.count(wwwIp, bare.result, counted));
        assertThat(bytes[0]).as("a cached static answer to an IPv4 client").isZero();
        assertThat(bytes[1]).as("a cached static answer to an IPv6 client").isZero();
        // The stages around the decision (guard, cookies, lookup, rate limit, writer) add nothing
        // to what the decision itself allocates (WideIpResolver; none in the server's profile).
        assertThat(bytes[2]).as("a wide IP's A answer, beyond its decision").isLessThanOrEqualTo(bytes[4] + 16);
        assertThat(bytes[3]).as("a wide IP's AAAA answer, beyond its decision").isLessThanOrEqualTo(bytes[4] + 16);
        assertThat(bytes[5])
                .as("counting an answer in answers{wideip,datacenter,method}")
                .isZero();
        assertThat(counts.cells().entrySet())
                .filteredOn(e -> e.getKey().wideIp().equals("www.example.com"))
                .extracting(e -> e.getValue().sum())
                .contains((long) RUNS * ROUNDS); // every round's RUNS answers, all under one cell
    }

    /**
     * A name no zone holds, asked once (a random-name flood): its NXDOMAIN is found in place, the
     * zone's one body written with the question, so it allocates nothing either; nor does REFUSED
     * for a random name in no zone here (a flood aimed at another domain).
     */
    @ParameterizedTest
    @CsvSource({".nope.example.com., NXDOMAIN", ".nope.example.net., REFUSED"})
    void aRandomNamesNegativeAnswerAllocatesNothing(String suffix, String rcode) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Authority authority = ExampleDeployment.authority(List.of());
        Responder responder = responder(authority, ExampleDeployment.resolver(registry), registry);
        Responder.Worker worker = responder.worker();
        ByteBuf out = Unpooled.buffer(4096);
        Address v4 = Address.parse("127.0.0.1");
        byte[][] names = new byte[RUNS][];
        for (int i = 0; i < names.length; i++) {
            names[i] = query("r" + Integer.toHexString(i * 0x9E3779B1) + suffix, Type.A);
        }
        respond(responder, worker, names[0], v4, out);
        byte[] wire = new byte[out.readableBytes()];
        out.getBytes(0, wire);
        assertThat(new Message(wire).getRcode()).isEqualTo(Rcode.value(rcode));
        int[] next = {0};
        long[] bytes = leastBytes(() -> respond(responder, worker, names[next[0]++ % names.length], v4, out));
        assertThat(bytes[0]).as("a %s for a name asked once", rcode).isZero();
    }

    /**
     * A wildcard wide IP is found from the packet's bytes (its suffixes looked up in place), and a
     * CNAME pool's answer copies the chosen name's bytes made when the pool was built: neither
     * adds to what the decision allocates.
     */
    @Test
    void aWildcardMatchAndACnamePoolsAnswerAllocateNoMoreThanTheirDecision() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MethodRegistry methods = ExampleDeployment.methods();
        Pool servers = new Pool(
                "edge",
                List.of(new VirtualServer("vs-edge", InetAddress.ofLiteral("198.51.100.10"), new DataCenter("CNC"))),
                List.of(methods.create("global-availability")),
                1,
                -1,
                List.of());
        Pool names = Pool.cname(
                "cdn",
                List.of(methods.create("round-robin")),
                -1,
                new CnameMembers(List.of(
                        new CnameTarget(Name.fromString("a.cdn-provider.example."), 1),
                        new CnameTarget(Name.fromString("b.cdn-provider.example."), 1))));
        WideIp wild = new WideIp(Name.fromString("*.edge.example.com."), List.of(servers), WideIp.DEFAULT_TTL);
        WideIp alias = new WideIp(Name.fromString("cdn.example.com."), List.of(names), WideIp.DEFAULT_TTL);
        Authority authority = ExampleDeployment.authority(List.of(wild, alias));
        WideIpResolver resolver = ExampleDeployment.resolver(registry);
        Responder responder = responder(authority, resolver, registry);
        Responder.Worker worker = responder.worker();
        ByteBuf out = Unpooled.buffer(4096);
        Address v4 = Address.parse("127.0.0.1");
        byte[] below = query("some.host.edge.example.com.", Type.A);
        byte[] cname = query("cdn.example.com.", Type.AAAA);
        assertThat(answerTypes(responder, worker, below, out)).containsOnly(Type.A);
        assertThat(answerTypes(responder, worker, cname, out)).containsOnly(Type.CNAME);
        WideIpResolver.Scratch bare = new WideIpResolver.Scratch();
        long[] bytes = leastBytes(
                () -> respond(responder, worker, below, v4, out),
                () -> respond(responder, worker, cname, v4, out),
                () -> {
                    bare.query.set(v4.hi(), v4.lo(), Type.A, NOW);
                    resolver.resolve(wild, bare);
                },
                () -> {
                    bare.query.set(v4.hi(), v4.lo(), Type.AAAA, NOW);
                    resolver.resolve(alias, bare);
                });
        assertThat(bytes[0])
                .as("a wildcard wide IP's answer, beyond its decision")
                .isLessThanOrEqualTo(bytes[2] + 16);
        assertThat(bytes[1]).as("a CNAME pool's answer, beyond its decision").isLessThanOrEqualTo(bytes[3] + 16);
    }

    /**
     * Each pool method, a pool passed over for its minimum of members up and the last resort
     * decide with nothing allocated: the pool order is a counter or a scan of the topology match,
     * never a list.
     */
    @Test
    void everyPoolMethodDecidesWithoutAllocating() throws Exception {
        dev.gslb.topology.TopologyTable table = dev.gslb.topology.TopologyTable.build(
                List.of(),
                List.of(
                        new dev.gslb.topology.TopologyRecord("127.0.0.0/8", "TEL", 100, "test"),
                        new dev.gslb.topology.TopologyRecord("::1/128", "CNC", 50, "test")),
                java.util.Set.of("CNC", "TEL"));
        MethodRegistry methods = ExampleDeployment.methods();
        DataCenter cnc = new DataCenter("CNC");
        DataCenter tel = new DataCenter("TEL");
        VirtualServer v4Cnc = new VirtualServer("cnc4", InetAddress.ofLiteral("198.18.1.10"), cnc);
        VirtualServer v6Cnc = new VirtualServer("cnc6", InetAddress.ofLiteral("2001:db8::10"), cnc);
        VirtualServer v4Tel = new VirtualServer("tel4", InetAddress.ofLiteral("198.18.2.10"), tel);
        List<dev.gslb.dns.method.LoadBalancingMethod> ga = List.of(methods.create("global-availability"));
        // two members, one of each type: an A query finds one up, under its minimum of two
        Pool web = new Pool("web", List.of(v4Cnc, v6Cnc), ga, 1, -1, List.of(), 2, Pool.MinUpAction.NEXT_POOL);
        Pool dr = new Pool("dr", List.of(v4Tel), ga, 1, -1, List.of());
        Pool open = new Pool("open", List.of(v4Cnc, v6Cnc), ga, 1, -1, List.of());
        WideIpResolver resolver = new WideIpResolver(
                () -> dev.gslb.site.SiteState.ALL_AVAILABLE,
                dev.gslb.probe.schedule.ProbeRequests.NONE,
                new SimpleMeterRegistry(),
                new dev.gslb.dns.wideip.AnswerStatistics(100),
                new dev.gslb.dns.wideip.PersistenceTable(dev.gslb.dns.method.StaticPersistence.Settings.DEFAULTS),
                () -> table);
        List<WideIp> wideIps = new java.util.ArrayList<>();
        for (WideIp.PoolMethod method : WideIp.PoolMethod.values()) {
            wideIps.add(new WideIp(
                    Name.fromString(method.configName() + ".example.com."),
                    List.of(open, dr),
                    method,
                    30,
                    dev.gslb.dns.wideip.Failure.DEFAULT,
                    false,
                    0,
                    List.of(3, 1),
                    -1));
        }
        WideIp lastResort = new WideIp(
                Name.fromString("last.example.com."),
                List.of(web, dr),
                WideIp.PoolMethod.GLOBAL_AVAILABILITY,
                30,
                dev.gslb.dns.wideip.Failure.DEFAULT,
                false,
                0,
                List.of(1, 1),
                1);
        wideIps.add(lastResort);
        resolver.countAnswersOf(wideIps);
        WideIpResolver.Scratch s = new WideIpResolver.Scratch();
        Address v4 = Address.parse("127.0.0.1");
        Runnable[] runs = new Runnable[wideIps.size()];
        for (int i = 0; i < runs.length; i++) {
            WideIp w = wideIps.get(i);
            runs[i] = () -> {
                s.query.set(v4.hi(), v4.lo(), Type.A, NOW);
                resolver.resolve(w, s);
            };
        }
        s.query.set(v4.hi(), v4.lo(), Type.A, NOW);
        assertThat(resolver.resolve(wideIps.get(3), s).answer(0).name())
                .as("topology: the pool whose data center scores best for 127.0.0.1")
                .isEqualTo("tel4");
        s.query.set(v4.hi(), v4.lo(), Type.A, NOW);
        assertThat(resolver.resolve(lastResort, s).answer(0).name())
                .as("web passes: too few up")
                .isEqualTo("tel4");
        long[] bytes = leastBytes(runs);
        for (int i = 0; i < runs.length; i++) {
            assertThat(bytes[i])
                    .as(wideIps.get(i).name() + " " + wideIps.get(i).poolMethod())
                    .isZero();
        }
    }

    /**
     * With dnstap logging every query, a query costs a copy into the ring's slot made in advance:
     * still nothing allocated (the writer thread encodes; a full ring drops and counts). A static
     * answer shows it clean: a wide IP's decision allocates a little now and then of its own.
     */
    @Test
    void loggingEveryQueryToDnstapAllocatesNothingOnTheQueryPath(@TempDir Path dir) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Authority authority = ExampleDeployment.authority(List.of());
        WideIpResolver resolver = ExampleDeployment.resolver(registry);
        Dnstap tap = Dnstap.start(DnstapSettings.DEFAULTS.toFile(dir.resolve("tap.fstrm")), "alloc", registry);
        try {
            Responder responder = new Responder(
                    authority,
                    resolver,
                    new InstanceIdentity("alloc", "CNC"),
                    new DnsMetrics(registry),
                    AnswerSettings.DEFAULTS,
                    System::nanoTime,
                    tap);
            Responder.Worker worker = responder.worker();
            ByteBuf out = Unpooled.buffer(4096);
            Address v4 = Address.parse("127.0.0.1");
            Address v6 = Address.parse("2001:db8::1");
            byte[] api = query("api.example.com.", Type.A);
            long[] bytes = leastBytes(
                    () -> respond(responder, worker, api, v4, out), () -> respond(responder, worker, api, v6, out));
            assertThat(bytes[0])
                    .as("a cached static answer to an IPv4 client, logged")
                    .isZero();
            assertThat(bytes[1])
                    .as("a cached static answer to an IPv6 client, logged")
                    .isZero();
        } finally {
            tap.close();
        }
        double queries = registry.get("dnstap_messages")
                .tag("type", "auth-query")
                .counter()
                .count();
        assertThat(queries).as("every query logged or counted as dropped").isEqualTo(ROUNDS * 2 * RUNS - tap.dropped());
        assertThat(registry.get("dnstap_messages")
                        .tag("type", "auth-response")
                        .counter()
                        .count())
                .as("a response for each query answered (response-rate limiting drops some)")
                .isPositive()
                .isLessThanOrEqualTo(queries);
    }

    /**
     * Signed (a query with DO, the zone signed here), a cached static answer still allocates
     * nothing, and a wide IP's answer nothing beyond its decision: its signature comes from the
     * table of answer sets, compared in place.
     */
    @Test
    void aSignedAnswerAllocatesNothingOnceItsSignatureIsMade() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Authority authority = ExampleDeployment.authority(List.of(), dev.gslb.dns.zone.DnssecSettings.DEFAULTS);
        WideIpResolver resolver = ExampleDeployment.resolver(registry);
        Responder responder = responder(authority, resolver, registry);
        responder.keys(dev.gslb.dns.dnssec.TestKeys.ring(Name.fromString("example.com.")));
        Responder.Worker worker = responder.worker();
        ByteBuf out = Unpooled.buffer(4096);
        Address v4 = Address.parse("127.0.0.1");
        long now = System.currentTimeMillis(); // signatures are timed by the clock, answers by the query's time
        byte[] api = SignedAnswerTest.query("api.example.com.", Type.A, true, false, 1232);
        byte[] www = SignedAnswerTest.query("www.example.com.", Type.A, true, false, 1232);
        for (byte[] q : List.of(api, www)) {
            out.clear();
            responder.respond(worker, q, q.length, Transport.UDP, v4.hi(), v4.lo(), now, out);
            byte[] wire = new byte[out.readableBytes()];
            out.getBytes(0, wire);
            assertThat(new Message(wire).getSection(Section.ANSWER))
                    .extracting(Record::getType)
                    .contains(Type.RRSIG);
        }
        WideIp wwwIp = authority.wideIp(Name.fromString("www.example.com."));
        WideIpResolver.Scratch bare = new WideIpResolver.Scratch();
        long[] bytes = leastBytes(
                () -> {
                    out.clear();
                    responder.respond(worker, api, api.length, Transport.UDP, v4.hi(), v4.lo(), now, out);
                },
                () -> {
                    out.clear();
                    responder.respond(worker, www, www.length, Transport.UDP, v4.hi(), v4.lo(), now, out);
                },
                () -> {
                    bare.query.set(v4.hi(), v4.lo(), Type.A, now);
                    resolver.resolve(wwwIp, bare);
                });
        assertThat(bytes[0]).as("a cached signed static answer").isZero();
        assertThat(bytes[1])
                .as("a signed wide IP's answer, beyond its decision")
                .isLessThanOrEqualTo(bytes[2] + 16);
    }

    private static final long NOW = 1_800_000_000_000L;

    private static Responder responder(Authority authority, WideIpResolver resolver, SimpleMeterRegistry registry) {
        return new Responder(
                authority,
                resolver,
                new InstanceIdentity("alloc", "CNC"),
                new DnsMetrics(registry),
                AnswerSettings.DEFAULTS);
    }

    private static void respond(Responder responder, Responder.Worker worker, byte[] q, Address client, ByteBuf out) {
        out.clear();
        responder.respond(worker, q, q.length, Transport.UDP, client.hi(), client.lo(), NOW, out);
    }

    /** The bytes per query of each of {@code runs}: the least over {@value #ROUNDS} rounds, after two that warm up. */
    private static long[] leastBytes(Runnable... runs) {
        long[] bytes = new long[runs.length];
        java.util.Arrays.fill(bytes, Long.MAX_VALUE);
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < runs.length; i++) {
                long b = perQuery(runs[i]);
                if (round >= 2) {
                    bytes[i] = Math.min(bytes[i], b);
                }
            }
        }
        return bytes;
    }

    private static final int ROUNDS = 8;

    /** Bytes this thread allocates per run of {@code r}, over {@value #RUNS} runs. */
    private static long perQuery(Runnable r) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < RUNS; i++) {
            r.run();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / RUNS;
    }

    private static final int RUNS = 20_000;

    private static List<Integer> answerTypes(Responder responder, Responder.Worker worker, byte[] q, ByteBuf out)
            throws Exception {
        respond(responder, worker, q, Address.parse("127.0.0.1"), out);
        byte[] wire = new byte[out.readableBytes()];
        out.getBytes(0, wire);
        Message m = new Message(wire);
        assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
        return m.getSection(Section.ANSWER).stream().map(Record::getType).toList();
    }

    private static byte[] query(String name, int type) throws Exception {
        return Message.newQuery(Record.newRecord(Name.fromString(name), type, org.xbill.DNS.DClass.IN))
                .toWire();
    }
}
