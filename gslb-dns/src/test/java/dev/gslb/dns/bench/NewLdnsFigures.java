package dev.gslb.dns.bench;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.probers.DnsProber;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeScheduler;
import dev.gslb.probe.schedule.ProbeSettings;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * What a query from a never-seen, probeable LDNS costs the server in CPU: the answer (a wide IP
 * whose pool uses the source's chain, RTT first), the proximity-table admission, the probe
 * request, and the scheduler's round (three DNS_DOT probes, each answered at once by an ICMP
 * port-unreachable from a closed port on loopback, so no time goes to a network wait), as the
 * server wires them, against a query from the same LDNS once measured. Every LDNS is a loopback
 * address in a /24 of its own (so no per-network rate refuses it), probed because this lab's
 * exclusion list is empty. The figure is the whole process's CPU (all threads, GC and JIT
 * included) over the queries and the rounds they cause, per LDNS, after a warm-up round of as
 * many other LDNS; the path refresh is off (its scan is per table, not per new LDNS). The UDP
 * syscalls of the query itself are the same for any query and are not in it. Asserts nothing.
 *   bash bench/run-test-main.sh gslb-dns -- dev.gslb.dns.bench.NewLdnsFigures [ldns]
 */
public final class NewLdnsFigures {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int closed;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.ofLiteral("127.0.0.1"))) {
            closed = s.getLocalPort(); // closed again: every probe gets a port-unreachable reply at once
        }
        InetAddress any = InetAddress.ofLiteral("0.0.0.0");
        ProbeSettings settings =
                ProbeSettings.defaults().withExclusions(List.of()).withRefresh(Duration.ZERO);
        settings = new ProbeSettings(
                any,
                List.of(ProbeProtocol.DNS_DOT),
                settings.samples(),
                settings.timeout(),
                1_000_000, // the cap paces probes by waiting, which costs no CPU: high, so the run is short
                settings.concurrency(),
                settings.minInterval(),
                closed,
                closed,
                settings.exclusions(),
                2 * n,
                settings.perNetwork(),
                settings.refresh(),
                settings.rttSmoothing(),
                settings.checkFirst());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ProximityTable table = new ProximityTable(ProximitySettings.DEFAULTS, Clock.systemUTC());
        try (ProbeScheduler scheduler = new ProbeScheduler(
                        table, settings, "CNC", "bench", List.of(DnsProber.dot(any, closed)), registry);
                Responder responder = new Responder(
                        ExampleDeployment.authority(List.of(wideIp(table))),
                        new WideIpResolver(() -> SiteState.ALL_AVAILABLE, scheduler, registry),
                        new InstanceIdentity("bench", "CNC"),
                        new DnsMetrics(registry),
                        AnswerSettings.DEFAULTS)) {
            byte[] query = Message.newQuery(Record.newRecord(Name.fromString("lab.example.com."), Type.A, DClass.IN))
                    .toWire();
            Run run = new Run(responder, registry, query);
            System.out.printf(
                    "%,d LDNS, each one query; %d probes per round; CPU of the whole process per LDNS:%n",
                    n, settings.samples());
            run.newLdns(ldns(0, n), "warm-up (JIT)", false);
            InetAddress[] measured = ldns(n, n);
            for (int round = 1; round <= 2; round++) {
                InetAddress[] fresh = round == 1 ? measured : ldns(2 * n, n);
                run.newLdns(fresh, "new LDNS, round " + round, true);
            }
            run.knownLdns(measured, "the same LDNS again, measured");
            run.knownLdns(measured, "the same LDNS again, measured");
        }
    }

    /** {@code n} loopback LDNS from the {@code from}-th on, each in a /24 of its own. */
    private static InetAddress[] ldns(int from, int n) throws Exception {
        InetAddress[] a = new InetAddress[n];
        for (int i = 0; i < n; i++) {
            int net = from + i + 1; // 127.0.1.0/24 upwards
            a[i] = InetAddress.getByAddress(new byte[] {127, (byte) (net >> 8), (byte) net, 1});
        }
        return a;
    }

    /** lab.example.com: one pool on the source's chain (lowest RTT, topology, global availability) over the table. */
    private static WideIp wideIp(ProximityTable table) throws Exception {
        MethodRegistry methods = new MethodRegistry(new MethodRegistry.Services(
                table,
                TopologyTable::empty,
                ProximitySettings.DEFAULTS.pathTtl().toMillis(),
                MethodSettings.DEFAULTS));
        Pool pool = new Pool(
                "lab",
                List.of(
                        new VirtualServer("vs1", InetAddress.ofLiteral("202.106.83.177"), new DataCenter("CNC")),
                        new VirtualServer("vs2", InetAddress.ofLiteral("219.17.66.100"), new DataCenter("TEL"))),
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                1,
                -1,
                List.of());
        return new WideIp(Name.fromString("lab.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
    }

    /** Sends the queries and reads the CPU spent. */
    private record Run(Responder responder, SimpleMeterRegistry registry, byte[] query) {
        void newLdns(InetAddress[] ldns, String what, boolean print) throws InterruptedException {
            double roundsBefore = rounds();
            long process = processCpu();
            long query = queries(ldns);
            Awaits.until("every new LDNS probed", Duration.ofMinutes(10), () -> rounds() - roundsBefore >= ldns.length);
            long all = processCpu() - process;
            if (print) {
                System.out.printf(
                        "  %-34s %6.1f us (the query on its thread %5.1f us; all else: probe round, GC, JIT %5.1f us)%n",
                        what + ":",
                        all / 1e3 / ldns.length,
                        query / 1e3 / ldns.length,
                        (all - query) / 1e3 / ldns.length);
            }
        }

        void knownLdns(InetAddress[] ldns, String what) {
            long process = processCpu();
            long query = queries(ldns);
            long all = processCpu() - process;
            System.out.printf(
                    "  %-34s %6.1f us (the query on its thread %5.1f us)%n",
                    what + ":", all / 1e3 / ldns.length, query / 1e3 / ldns.length);
        }

        /** Answers one query from each LDNS, as a listener does; the CPU time of this thread. */
        private long queries(InetAddress[] ldns) {
            Responder.Worker worker = responder.worker();
            ByteBuf out = Unpooled.buffer(4096);
            var mx = ManagementFactory.getThreadMXBean();
            long start = mx.getCurrentThreadCpuTime();
            for (InetAddress a : ldns) {
                out.clear();
                responder.respond(
                        worker,
                        query,
                        query.length,
                        dev.gslb.dns.answer.Transport.UDP,
                        dev.gslb.topology.Cidr.hiOf(a),
                        dev.gslb.topology.Cidr.loOf(a),
                        System.currentTimeMillis(),
                        out);
            }
            return mx.getCurrentThreadCpuTime() - start;
        }

        private double rounds() {
            double n = 0;
            for (var c : registry.find("probe_rounds").counters()) {
                n += c.count();
            }
            return n;
        }

        private static long processCpu() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }
    }
}
