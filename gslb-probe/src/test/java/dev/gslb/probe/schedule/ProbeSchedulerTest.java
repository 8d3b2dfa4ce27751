package dev.gslb.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.DroppingNamespace;
import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import dev.gslb.probe.probers.UdpProber;
import dev.gslb.probe.proximity.LdnsEntry;
import dev.gslb.probe.proximity.ProximitySettings;
import dev.gslb.probe.proximity.ProximityTable;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProbeSchedulerTest {
    static final InetAddress ANY = InetAddress.ofLiteral("0.0.0.0");

    /** A real UDP prober whose sends are timestamped, so the rate can be checked from outside. */
    record Counting(Prober inner, ConcurrentLinkedQueue<Long> sends) implements Prober {
        /**
         * Not counted: the LDNS a test requests last, whose probe proves the workers took all that
         * was queued before it (the queue is first in, first out).
         */
        static final InetAddress MARKER = InetAddress.ofLiteral("127.0.0.99");

        @Override
        public ProbeProtocol protocol() {
            return inner.protocol();
        }

        @Override
        public Sample sample(InetAddress target, Duration timeout) {
            if (!target.equals(MARKER)) {
                sends.add(System.nanoTime());
            }
            return inner.sample(target, timeout);
        }
    }

    static void awaitProbed(ProximityTable table, InetAddress ldns) throws InterruptedException {
        Awaits.until(ldns.getHostAddress() + " probed", Duration.ofSeconds(10), () -> {
            LdnsEntry e = table.get(Address.of(ldns));
            return e != null && e.state() == LdnsEntry.State.PROBED;
        });
    }

    /** Requests the marker and waits until it is probed: whatever was queued before it has been sent. */
    static void awaitMarker(ProbeScheduler s, ProximityTable table) throws InterruptedException {
        s.ldnsQueried(Counting.MARKER, System.currentTimeMillis()); // awaitProbed fails loudly if it was not taken
        awaitProbed(table, Counting.MARKER);
    }

    static int closedUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.ofLiteral("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    static ProbeSettings settings(int rate, List<String> exclusions, int port) {
        ProbeSettings d = ProbeSettings.defaults();
        return new ProbeSettings(
                ANY,
                List.of(ProbeProtocol.UDP),
                1,
                Duration.ofMillis(300),
                rate,
                64,
                Duration.ofSeconds(60),
                port,
                port,
                exclusions,
                20_000,
                1_000_000);
    }

    static InetAddress loopback(int i) {
        return InetAddress.ofLiteral("127.10." + (i >> 8) + "." + (i & 0xFF));
    }

    /**
     * The limiter's time, virtual: a wait for a slot moves it on to the slot, at once, and the
     * slot is recorded. The cap is then checked in the limiter's own time, so a slow or busy
     * machine can neither fail the test nor hide a burst.
     */
    static final class VirtualTicker implements RateLimiter.Ticker {
        final AtomicLong now = new AtomicLong();
        final ConcurrentLinkedQueue<Long> slots = new ConcurrentLinkedQueue<>();

        @Override
        public long nanoTime() {
            return now.get();
        }

        @Override
        public void waitUntil(long nanos) {
            slots.add(nanos);
            now.accumulateAndGet(nanos, Math::max);
        }
    }

    @Test
    void theRateCapHoldsUnderTenThousandRequests() throws Exception {
        int cap = 100;
        int requests = 10_000;
        ConcurrentLinkedQueue<Long> sends = new ConcurrentLinkedQueue<>();
        ProximityTable table = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        int port = closedUdpPort();
        VirtualTicker ticker = new VirtualTicker();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ProbeScheduler s = new ProbeScheduler(
                table,
                settings(cap, List.of(), port),
                "CNC",
                "test",
                List.of(new Counting(new UdpProber(ANY, port), sends)),
                registry,
                new RateLimiter(cap, ticker))) {
            for (int i = 0; i < requests; i++) {
                s.ldnsQueried(loopback(i), System.currentTimeMillis());
            }
            // every request ends as a round or as a skip (64 workers, one sample each, at real speed)
            Awaits.until(
                    "every request probed or skipped",
                    Duration.ofSeconds(120),
                    () -> sum(registry, "probe_rounds") + sum(registry, "probe_requests_skipped") == requests);
        }
        List<Long> slots = ticker.slots.stream().sorted().toList();
        int worst = 0;
        for (int i = 0, j = 0; i < slots.size(); i++) {
            while (slots.get(i) - slots.get(j) >= 1_000_000_000L) {
                j++;
            }
            worst = Math.max(worst, i - j + 1);
        }
        System.out.printf(
                "rate cap %d/s: %d probes over %.1f s of the limiter's time, at most %d in any 1-second window%n",
                cap, slots.size(), (slots.getLast() - slots.getFirst()) / 1e9, worst);
        assertThat(sends).as("every probe sent took a slot").hasSameSizeAs(slots);
        assertThat(slots.size()).as("the cap was reached many times over").isGreaterThan(10 * cap);
        assertThat(worst).as("probes in any one-second window").isLessThanOrEqualTo(cap);
    }

    private static double sum(SimpleMeterRegistry registry, String counter) {
        return registry.find(counter).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    @Test
    void requestsAreDeduplicatedAndRespectTheMinimumInterval() throws Exception {
        ConcurrentLinkedQueue<Long> sends = new ConcurrentLinkedQueue<>();
        ProximityTable table = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        int port = closedUdpPort();
        InetAddress ldns = InetAddress.ofLiteral("127.0.0.60");
        try (ProbeScheduler s = new ProbeScheduler(
                table,
                settings(1000, List.of(), port),
                "CNC",
                "test",
                List.of(new Counting(new UdpProber(ANY, port), sends)),
                new SimpleMeterRegistry())) {
            for (int i = 0; i < 1000; i++) {
                s.ldnsQueried(ldns, System.currentTimeMillis());
            }
            awaitProbed(table, ldns);
            assertThat(table.get(Address.of(ldns)).path("CNC")).isNotNull();
            assertThat(s.request(ldns, Address.of(ldns))).isEqualTo(ProbeScheduler.Skip.FRESH);
            awaitMarker(s, table);
        }
        assertThat(sends).as("one round of one sample for 1000 requests").hasSize(1);
    }

    @Test
    void excludedAddressesAreNeverProbed() throws Exception {
        ConcurrentLinkedQueue<Long> sends = new ConcurrentLinkedQueue<>();
        ProximityTable table = new ProximityTable(
                ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
        int port = closedUdpPort();
        try (ProbeScheduler s = new ProbeScheduler(
                table,
                settings(1000, List.of("127.20.0.0/16"), port),
                "CNC",
                "test",
                List.of(new Counting(new UdpProber(ANY, port), sends)),
                new SimpleMeterRegistry())) {
            InetAddress excluded = InetAddress.ofLiteral("127.20.1.1");
            assertThat(s.request(excluded, Address.of(excluded))).isEqualTo(ProbeScheduler.Skip.EXCLUDED);
            InetAddress multicast = InetAddress.ofLiteral("224.0.0.1");
            assertThat(s.request(multicast, Address.of(multicast))).isEqualTo(ProbeScheduler.Skip.EXCLUDED);
            awaitMarker(s, table);
        }
        assertThat(sends).isEmpty();
    }

    @Test
    void anLdnsThatDropsEverythingIsUnprobeableUntilTheRetryTime() throws Exception {
        try (DroppingNamespace ns = new DroppingNamespace("gslbt-sched", 92)) {
            ProximityTable table = new ProximityTable(
                    ProximitySettings.DEFAULTS.withNewPerNetwork(1_000_000, 1_000_000), Clock.systemUTC());
            ProbeSettings st = new ProbeSettings(
                    ANY,
                    List.of(ProbeProtocol.DNS_DOT, ProbeProtocol.UDP, ProbeProtocol.TCP),
                    2,
                    Duration.ofMillis(200),
                    1000,
                    4,
                    Duration.ofSeconds(60),
                    53,
                    53,
                    List.of(),
                    100,
                    1_000);
            try (ProbeScheduler s = new ProbeScheduler(
                    table,
                    st,
                    "CNC",
                    "test",
                    List.of(
                            dev.gslb.probe.probers.DnsProber.dot(ANY, 53),
                            new UdpProber(ANY, 53),
                            new dev.gslb.probe.probers.TcpProber(ANY, 53)),
                    new SimpleMeterRegistry())) {
                var r = s.probeNow(ns.address, null);
                assertThat(r.probeable()).isFalse();
                assertThat(r.sent()).isEqualTo(6);
                LdnsEntry e = table.get(Address.of(ns.address));
                assertThat(e.state()).isEqualTo(LdnsEntry.State.UNPROBEABLE);
                assertThat(e.retryAt()).isGreaterThan(System.currentTimeMillis() + 100_000);
                assertThat(s.request(ns.address, Address.of(ns.address))).isEqualTo(ProbeScheduler.Skip.FRESH);
            }
        }
    }
}
