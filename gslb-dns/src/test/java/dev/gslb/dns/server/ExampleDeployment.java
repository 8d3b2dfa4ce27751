package dev.gslb.dns.server;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.transfer.Notifier;
import dev.gslb.dns.transfer.Transfers;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.wideip.WideIpResolver;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.probe.schedule.ProbeRequests;
import dev.gslb.site.DataCenter;
import dev.gslb.site.SiteState;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.TopologyTable;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;

/** The source's example (zones/example.com.zone, CNC and TEL) on an ephemeral loopback port. */
public final class ExampleDeployment implements AutoCloseable {
    /** The example zone, from the module folder (tests) or the checkout (figure printers). */
    public static final Path ZONE = java.nio.file.Files.exists(Path.of("../zones/example.com.zone"))
            ? Path.of("../zones/example.com.zone")
            : Path.of("zones/example.com.zone");

    public static final String INSTANCE = "test-instance-cnc";

    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    public final Responder responder;
    /** Transfers out: of the zones whose settings offer them (none in the example zone as loaded). */
    public final Transfers transfers = new Transfers(new Notifier());

    public final DnsServer server;

    public ExampleDeployment() throws Exception {
        this(listener(2), AnswerSettings.DEFAULTS);
    }

    /** {@code threads} event loops; with one, every datagram shares one socket and one thread, as under attack on one core. */
    public ExampleDeployment(int threads) throws Exception {
        this(listener(threads), AnswerSettings.DEFAULTS);
    }

    public ExampleDeployment(ListenerSettings listener, AnswerSettings answers) throws Exception {
        this(listener, answers, authority());
    }

    public ExampleDeployment(ListenerSettings listener, AnswerSettings answers, Authority authority) throws Exception {
        this(listener, answers, authority, System::nanoTime);
    }

    /** With the time response-rate limiting counts in (a fixed one makes its counts exact). */
    public ExampleDeployment(
            ListenerSettings listener, AnswerSettings answers, Authority authority, LongSupplier rateLimitTime)
            throws Exception {
        DnsMetrics metrics = new DnsMetrics(registry);
        responder = new Responder(
                authority,
                resolver(registry),
                new InstanceIdentity(INSTANCE, "CNC"),
                metrics,
                answers,
                rateLimitTime,
                null);
        transfers.update(authority, TsigKeys.NONE);
        server = new DnsServer(listener, responder, transfers, metrics);
        server.start();
    }

    /** The default listener settings on an ephemeral loopback port. */
    public static ListenerSettings listener(int threads) {
        return ListenerSettings.DEFAULTS.withAddresses(
                List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), threads);
    }

    /** The source's chain over an empty proximity table and topology: global availability decides. */
    public static WideIpResolver resolver(MeterRegistry registry) {
        return new WideIpResolver(() -> SiteState.ALL_AVAILABLE, ProbeRequests.NONE, registry);
    }

    public static Authority authority() throws Exception {
        return authority(List.of());
    }

    /** The example zone with www.example.com and {@code more} wide IPs. */
    public static Authority authority(List<WideIp> more) throws Exception {
        return authority(more, null);
    }

    /** {@link #authority(List)}, the zone signed as {@code dnssec} says (null: unsigned). */
    public static Authority authority(List<WideIp> more, dev.gslb.dns.zone.DnssecSettings dnssec) throws Exception {
        DataCenter cnc = new DataCenter("CNC");
        DataCenter tel = new DataCenter("TEL");
        MethodRegistry methods = methods();
        Pool pool = new Pool(
                "www",
                List.of(
                        new VirtualServer("vs1", InetAddress.ofLiteral("202.106.83.177"), cnc),
                        new VirtualServer("vs2", InetAddress.ofLiteral("219.17.66.100"), tel)),
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                1,
                -1,
                List.of());
        WideIp www = new WideIp(Name.fromString("www.example.com."), List.of(pool), WideIp.DEFAULT_TTL);
        List<WideIp> all = new java.util.ArrayList<>(more);
        all.add(www);
        return new Authority(List.of(ZoneFile.load(ZONE, null).withDnssec(dnssec)), all);
    }

    /** The methods over an empty proximity table and topology. */
    /** A pool of one virtual server {@code vs-NAME} at {@code address} in CNC, by global availability. */
    public static Pool edgePool(String name, String address) {
        return new Pool(
                name,
                List.of(new VirtualServer("vs-" + name, InetAddress.ofLiteral(address), new DataCenter("CNC"))),
                List.of(methods().create("global-availability")),
                1,
                -1,
                List.of());
    }

    public static MethodRegistry methods() {
        return new MethodRegistry(new MethodRegistry.Services(
                new ProximityTable(ProximitySettings.DEFAULTS, java.time.Clock.systemUTC()),
                TopologyTable::empty,
                2_400_000,
                dev.gslb.dns.method.MethodSettings.DEFAULTS));
    }

    /** Sends {@code query} from {@code s} to {@code to} and returns the answer (the socket's timeout applies). */
    public static Message exchange(DatagramSocket s, InetSocketAddress to, byte[] query) throws IOException {
        s.send(new DatagramPacket(query, query.length, to));
        byte[] buf = new byte[4096];
        DatagramPacket reply = new DatagramPacket(buf, buf.length);
        s.receive(reply);
        return new Message(java.util.Arrays.copyOf(buf, reply.getLength()));
    }

    public InetSocketAddress address() {
        return server.boundAddresses().getFirst();
    }

    public double counter(String name, String tag, String value) {
        var c = registry.find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    @Override
    public void close() {
        server.close();
        transfers.close();
        responder.close();
    }
}
