package dev.gslb.dns.hostile;

import static dev.gslb.dns.server.ExampleDeployment.exchange;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.probe.Awaits;
import dev.gslb.site.DataCenter;
import dev.gslb.site.VirtualServer;
import dev.gslb.topology.CidrSet;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xbill.DNS.CookieOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The DNS port tried as an attacker would, over real sockets: crafted packets, oversize answers,
 * a spoofed flood, slow and greedy TCP clients. Each test says what a real resolver still gets.
 */
class HostileTrafficTest {
    private static final byte[] COOKIE = {1, 2, 3, 4, 5, 6, 7, 8};

    private static byte[] query(String name, int type, int id) throws IOException {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
        q.getHeader().setID(id);
        return q.toWire();
    }

    private static byte[] queryWithCookie(String name, int id, byte[] client, byte[] server) throws IOException {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN));
        q.getHeader().setID(id);
        CookieOption c = server == null ? new CookieOption(client) : new CookieOption(client, server);
        q.addRecord(new OPTRecord(1232, 0, 0, 0, List.of(c)), Section.ADDITIONAL);
        return q.toWire();
    }

    private static AnswerSettings rateLimited(int perSecond) {
        // Nothing exempt: the tests' clients are on loopback, which the default exempts.
        return AnswerSettings.DEFAULTS.withRateLimit(RateLimitSettings.DEFAULTS
                .withRate(perSecond)
                .withExempt(CidrSet.parse(List.of("192.0.2.0/24"), "exempt")));
    }

    @Test
    void aFloodOfPointerLadderQueriesIsDroppedWhileNormalQueriesAreAnswered() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(1);
                DatagramSocket client = new DatagramSocket();
                DatagramSocket attacker = new DatagramSocket()) {
            client.setSoTimeout(5000);
            byte[] soa = query("example.com.", Type.SOA, 7);
            for (int i = 0; i < 2000; i++) { // warm up
                exchange(client, d.address(), soa);
            }
            long[] idle = latencies(client, d.address(), soa, 1000);
            byte[][] crafted = {CraftedPackets.pointerChain(65_000), CraftedPackets.pointerChain(4096)};
            AtomicInteger sent = new AtomicInteger();
            Thread flood = Thread.ofPlatform().start(() -> {
                try {
                    while (sent.get() < 200) { // 100 of each size, one every 0.5 ms, while the client asks
                        byte[] p = crafted[sent.get() % 2];
                        attacker.send(new DatagramPacket(p, p.length, d.address()));
                        sent.incrementAndGet();
                        Thread.sleep(0, 500_000); // kept: the attacker's pace is part of the traffic under test
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            long[] attacked = latencies(client, d.address(), soa, 1000);
            flood.join();
            long p99Idle = idle[idle.length * 99 / 100];
            long p99Attacked = attacked[attacked.length * 99 / 100];
            // a figure, not a bar: the latency is the machine's as much as ours (CraftedPacketFigures has the CPU cost)
            System.out.printf(
                    "pointer-ladder flood: p99 of a normal query %d us idle, %d us under %d crafted datagrams%n",
                    p99Idle / 1000, p99Attacked / 1000, sent.get());
            assertThat(sent.get()).isEqualTo(200);
            assertThat(d.counter("dns_dropped", "reason", "oversize"))
                    .as("64 KiB datagrams dropped unread")
                    .isPositive();
            assertThat(d.counter("dns_dropped", "reason", "malformed"))
                    .as("4 KiB ones refused at QDCOUNT")
                    .isPositive();
        }
    }

    private static long[] latencies(DatagramSocket s, InetSocketAddress to, byte[] q, int n) throws IOException {
        long[] ns = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Message m = exchange(s, to, q); // a normal query left unanswered times out here, failing the test
            ns[i] = System.nanoTime() - t0;
            assertThat(m.getSection(Section.ANSWER)).as("answered in full").hasSize(1);
        }
        Arrays.sort(ns);
        return ns;
    }

    @Test
    void aWideIpAnswerOver512BytesIsTruncatedOverPlainUdpAndWholeOverTcp() throws Exception {
        DataCenter dc = new DataCenter("CNC");
        List<VirtualServer> members = new ArrayList<>();
        for (int i = 1; i <= 16; i++) {
            members.add(new VirtualServer("v6-" + i, InetAddress.ofLiteral("2001:db8::" + Integer.toHexString(i)), dc));
        }
        MethodRegistry methods = ExampleDeployment.methods();
        Pool pool = new Pool(
                "many",
                members,
                MethodRegistry.DEFAULT_CHAIN.stream().map(methods::create).toList(),
                16,
                -1,
                List.of());
        String name = "a-rather-long-label-for-a-wide-ip-name-0123456789."
                + "another-rather-long-label-for-the-same-name-012345.www.example.com.";
        WideIp big = new WideIp(Name.fromString(name), List.of(pool), 30);
        try (ExampleDeployment d = new ExampleDeployment(
                        ExampleDeployment.listener(2),
                        AnswerSettings.DEFAULTS,
                        ExampleDeployment.authority(List.of(big)));
                DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(3000);
            Message plain = exchange(s, d.address(), query(name, Type.AAAA, 1));
            assertThat(plain.getHeader().getFlag(Flags.TC))
                    .as("537+ bytes do not fit 512")
                    .isTrue();
            assertThat(plain.toWire().length).isLessThanOrEqualTo(512);
            assertThat(plain.getSection(Section.ANSWER)).isEmpty();

            Message edns = Message.newQuery(Record.newRecord(Name.fromString(name), Type.AAAA, DClass.IN));
            edns.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
            Message fits = exchange(s, d.address(), edns.toWire());
            assertThat(fits.getHeader().getFlag(Flags.TC)).isFalse();
            assertThat(fits.getSection(Section.ANSWER)).hasSize(16);

            try (Socket tcp = new Socket(d.address().getAddress(), d.address().getPort())) {
                tcp.setSoTimeout(3000);
                byte[] q = query(name, Type.AAAA, 2);
                DataOutputStream out = new DataOutputStream(tcp.getOutputStream());
                out.writeShort(q.length);
                out.write(q);
                DataInputStream in = new DataInputStream(tcp.getInputStream());
                Message whole = new Message(in.readNBytes(in.readUnsignedShort()));
                assertThat(whole.getHeader().getFlag(Flags.TC)).isFalse();
                assertThat(whole.getSection(Section.ANSWER)).hasSize(16);
            }
        }
    }

    @Test
    void rateLimitingAnswersOneNetworkAtTheRateSlipsTheRestAndSparesCookies() throws Exception {
        int rate = 100;
        // the limiter's time stands still: it counts what is sent, however slowly this machine sends it
        try (ExampleDeployment d = new ExampleDeployment(
                        ExampleDeployment.listener(1), rateLimited(rate), ExampleDeployment.authority(), () -> 0L);
                DatagramSocket flooded = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
                DatagramSocket neighbour = new DatagramSocket(new InetSocketAddress("127.0.1.1", 0));
                DatagramSocket cookieClient = new DatagramSocket(new InetSocketAddress("127.0.0.2", 0))) {
            byte[] q = query("api.example.com.", Type.A, 9);
            Received flood = flood(d, flooded, java.util.Collections.nCopies(1000, q));
            neighbour.setSoTimeout(2000);
            Message other = exchange(neighbour, d.address(), q);
            double slipped = d.counter("dns_rate_limited", "action", "slipped");
            double dropped = d.counter("dns_rate_limited", "action", "dropped");
            System.out.printf(
                    "RRL at %d/s: 1000 queries at one instant of its time -> %d answers, %d truncated (slip), %.0f"
                            + " dropped%n",
                    rate, flood.full(), flood.truncated(), dropped);
            assertThat(flood.full()).as("a second's worth").isEqualTo(rate);
            assertThat(flood.truncated())
                    .as("every second limited answer slips")
                    .isEqualTo((1000 - rate) / 2);
            assertThat((double) flood.truncated()).isEqualTo(slipped);
            assertThat(slipped + dropped + flood.full()).isEqualTo(1000);
            assertThat(other.getSection(Section.ANSWER))
                    .as("another /24 is answered")
                    .isNotEmpty();

            // A resolver in the limited network that sends a cookie: its first queries, with a client cookie
            // only, are slipped as BADCOOKIE carrying our server cookie (RFC 7873 5.2.3); with that cookie it
            // proves it is no spoofed source and is answered in full, all of it, over the rate.
            cookieClient.setSoTimeout(300);
            byte[] server = null;
            int firstRcode = -1;
            for (int i = 0; i < 20 && server == null; i++) {
                try {
                    Message m =
                            exchange(cookieClient, d.address(), queryWithCookie("api.example.com.", 1, COOKIE, null));
                    server = ((CookieOption) m.getOPT()
                                    .getOptions(EDNSOption.Code.COOKIE)
                                    .getFirst())
                            .getServerCookie()
                            .orElseThrow();
                    firstRcode = m.getRcode();
                } catch (SocketTimeoutException notSlipped) {
                    // limited and not slipped: a resolver retries
                }
            }
            assertThat(firstRcode)
                    .as("a limited client-cookie query is slipped as BADCOOKIE")
                    .isEqualTo(Rcode.BADCOOKIE);
            assertThat(server).hasSize(16);
            byte[] withCookie = queryWithCookie("api.example.com.", 2, COOKIE, server);
            cookieClient.setSoTimeout(2000);
            int answered = 0;
            for (int i = 0; i < 1000; i++) {
                Message m = exchange(cookieClient, d.address(), withCookie);
                answered += !m.getHeader().getFlag(Flags.TC)
                                && !m.getSection(Section.ANSWER).isEmpty()
                        ? 1
                        : 0;
            }
            assertThat(answered)
                    .as("the cookie-bearing client, same /24, over the rate")
                    .isEqualTo(1000);
        }
    }

    /**
     * Names no zone holds are endless, so answers are counted under what made them: a wildcard's
     * answers under its owner, NODATA under the name whatever the type. Each flood is 1,000
     * queries from one source, each asking something not asked before, at one instant of the
     * limiter's time: it gets the rate in full and every second answer over it as a slip.
     */
    @ParameterizedTest
    @EnumSource(EndlessQuestions.class)
    void aFloodOfQuestionsNeverAskedBeforeIsLimitedLikeOneQuestion(EndlessQuestions questions) throws Exception {
        int rate = 100;
        try (ExampleDeployment d = new ExampleDeployment(
                        ExampleDeployment.listener(1), rateLimited(rate), ExampleDeployment.authority(), () -> 0L);
                DatagramSocket flooded = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            List<byte[]> queries = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                queries.add(questions.query(i));
            }
            Message sample = exchange(flooded, d.address(), questions.query(-1)); // the kind of answer each gets
            assertThat(questions.matches(sample))
                    .as("%s: %s", questions, sample)
                    .isTrue();
            Received flood = flood(d, flooded, queries);
            System.out.printf(
                    "RRL at %d/s, %s: 1000 questions never asked before -> %d answers, %d truncated (slip)%n",
                    rate, questions, flood.full(), flood.truncated());
            assertThat(flood.full()).as("the rate, after the one sample").isEqualTo(rate - 1);
            assertThat(flood.truncated())
                    .as("every second limited answer slips")
                    .isEqualTo((1001 - rate) / 2);
        }
    }

    /** Questions an attacker can vary without end, and the answer each gets. */
    enum EndlessQuestions {
        /** Random names under *.wild.example.com: the wildcard's A record. */
        WILDCARD_DATA,
        /** Random names under *.wild.example.com, of a type the wildcard lacks: NODATA. */
        WILDCARD_NODATA,
        /** api.example.com with a different unassigned type each time: NODATA. */
        TYPES_OF_ONE_NAME,
        /** ftp.example.com (a CNAME to api) with a different unassigned type each time: the CNAME. */
        TYPES_OF_AN_ALIAS;

        byte[] query(int i) throws IOException {
            String random = "r" + Integer.toHexString(0x5EED00 + i);
            return switch (this) {
                case WILDCARD_DATA -> query(random + ".wild.example.com.", Type.A, i);
                case WILDCARD_NODATA -> query(random + ".wild.example.com.", Type.MX, i);
                case TYPES_OF_ONE_NAME -> query("api.example.com.", 4000 + i, i);
                case TYPES_OF_AN_ALIAS -> query("ftp.example.com.", 4000 + i, i);
            };
        }

        boolean matches(Message m) {
            boolean data = this == WILDCARD_DATA || this == TYPES_OF_AN_ALIAS;
            return m.getRcode() == Rcode.NOERROR
                    && m.getSection(Section.ANSWER).isEmpty() != data
                    && !m.getHeader().getFlag(Flags.TC);
        }

        private static byte[] query(String name, int type, int id) throws IOException {
            return HostileTrafficTest.query(name, type, id & 0xFFFF);
        }
    }

    /** What one source got back from a flood: answers in full, and truncated ones (slips). */
    private record Received(int full, int truncated) {}

    /**
     * Sends {@code queries} from {@code source}, 50 at a time, each batch once the server has
     * counted the one before (so no socket buffer drops any), and counts what comes back.
     */
    private static Received flood(ExampleDeployment d, DatagramSocket source, List<byte[]> queries) throws Exception {
        AtomicInteger full = new AtomicInteger();
        AtomicInteger truncated = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        source.setSoTimeout(100); // so the receiver looks at done now and then
        Thread receiver = Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[4096];
            while (!done.get()) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    source.receive(p);
                    ((buf[2] & 0x02) != 0 ? truncated : full).incrementAndGet();
                } catch (SocketTimeoutException idle) {
                    // nothing yet: look at done again
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        double before = counted(d);
        for (int sent = 0; sent < queries.size(); ) {
            for (int end = Math.min(sent + 50, queries.size()); sent < end; sent++) {
                byte[] q = queries.get(sent);
                source.send(new DatagramPacket(q, q.length, d.address()));
            }
            int expected = sent;
            Awaits.until(
                    "the server counts query " + sent, Duration.ofSeconds(10), () -> counted(d) - before >= expected);
        }
        double answered = counted(d) - before - d.counter("dns_rate_limited", "action", "dropped");
        Awaits.until(
                "the " + (long) answered + " answers arrive",
                Duration.ofSeconds(10),
                () -> full.get() + truncated.get() >= answered);
        done.set(true);
        receiver.join();
        return new Received(full.get(), truncated.get());
    }

    /** UDP queries the server has dealt with: answered (any rcode), slipped or dropped by rate limiting. */
    static double counted(ExampleDeployment d) {
        double n = 0;
        for (var c : d.registry.find("dns_responses").tag("transport", "udp").counters()) {
            n += c.count();
        }
        return n
                + d.counter("dns_rate_limited", "action", "dropped")
                + d.counter("dns_rate_limited", "action", "slipped");
    }

    @Test
    void aTricklingTcpClientIsClosedAtTheQueryTimeout() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(
                        ExampleDeployment.listener(2)
                                .withTcpLimits(Duration.ofSeconds(10), Duration.ofMillis(500), 1024, 64),
                        AnswerSettings.DEFAULTS);
                Socket slow = new Socket(d.address().getAddress(), d.address().getPort())) {
            InputStream in = slow.getInputStream();
            slow.setSoTimeout(100);
            byte[] q = query("api.example.com.", Type.A, 5);
            byte[] framed = new byte[q.length + 2];
            framed[1] = (byte) q.length;
            System.arraycopy(q, 0, framed, 2, q.length);
            boolean closed = false;
            for (int i = 0; i < framed.length && !closed; i++) { // one byte every 100 ms: 3 s for the whole query
                try {
                    slow.getOutputStream().write(framed[i]);
                    closed = in.read() == -1;
                } catch (SocketTimeoutException stillOpen) {
                    // nothing to read yet
                } catch (IOException reset) {
                    closed = true;
                }
            }
            assertThat(closed).as("closed before the query was complete").isTrue();
            assertThat(d.counter("dns_dropped", "reason", "tcp_query_timeout")).isEqualTo(1.0);
        }
    }

    @Test
    void oneSourceCannotTakeEveryConnection() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment()) {
            List<Socket> greedy = new ArrayList<>();
            try {
                for (int i = 0; i < 1100; i++) {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress("127.0.0.1", 0));
                    s.connect(d.address());
                    greedy.add(s);
                }
                try (Socket other = new Socket()) {
                    other.bind(new InetSocketAddress("127.0.0.2", 0));
                    other.connect(d.address());
                    other.setSoTimeout(3000);
                    byte[] q = query("api.example.com.", Type.A, 6);
                    DataOutputStream out = new DataOutputStream(other.getOutputStream());
                    out.writeShort(q.length);
                    out.write(q);
                    DataInputStream in = new DataInputStream(other.getInputStream());
                    Message m = new Message(in.readNBytes(in.readUnsignedShort()));
                    assertThat(m.getSection(Section.ANSWER))
                            .as("another source is served")
                            .isNotEmpty();
                }
                // each event loop accepts from its own socket: the other loop may still be taking its share
                Awaits.until(
                        "every connection over the cap closed",
                        Duration.ofSeconds(10),
                        () -> d.counter("dns_dropped", "reason", "tcp_source_limit") >= 1100 - 64);
                double refused = d.counter("dns_dropped", "reason", "tcp_source_limit");
                System.out.printf(
                        "1100 connections from one source: %.0f closed by the per-source cap of 64%n", refused);
                assertThat(refused).isEqualTo(1100 - 64);
            } finally {
                for (Socket s : greedy) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aPipeliningClientThatNeverReadsHoldsOnlyBoundedServerMemory() throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(
                        ExampleDeployment.listener(1)
                                .withTcpLimits(Duration.ofSeconds(2), Duration.ofSeconds(2), 1024, 64),
                        AnswerSettings.DEFAULTS);
                SocketChannel greedy = SocketChannel.open();
                java.nio.channels.Selector writable = java.nio.channels.Selector.open()) {
            var metric = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
            long before = metric.usedDirectMemory();
            greedy.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4096);
            greedy.connect(d.address());
            greedy.configureBlocking(false);
            greedy.register(writable, java.nio.channels.SelectionKey.OP_WRITE);
            byte[] q = query("big.example.com.", Type.TXT, 8); // about 1.5 KB of answer per 35-byte query
            ByteBuffer one =
                    ByteBuffer.allocate(q.length + 2).putShort((short) q.length).put(q);
            long sentQueries = 0;
            long peak = before;
            long idleSince = System.nanoTime();
            boolean reset = false;
            while (!reset && System.nanoTime() - idleSince < 1_000_000_000L) { // until the server stops reading for 1 s
                if (!one.hasRemaining()) {
                    one.rewind(); // the next query; a partly written one is finished first
                }
                try {
                    while (one.hasRemaining() && greedy.write(one) > 0) {
                        idleSince = System.nanoTime();
                    }
                    if (one.hasRemaining()) {
                        writable.selectedKeys().clear();
                        writable.select(10); // until the socket takes more, or 10 ms to look at the idle time again
                    } else {
                        sentQueries++;
                    }
                } catch (IOException e) {
                    reset = true; // the server closed it already: unwritable for the whole idle timeout
                }
                peak = Math.max(peak, metric.usedDirectMemory());
            }
            long grown = peak - before;
            System.out.printf(
                    "pipelining client that never reads: %d queries accepted (%d KB of answers asked for),"
                            + " server direct memory grew by %d KB at most%n",
                    sentQueries, sentQueries * 1500 / 1024, grown / 1024);
            assertThat(sentQueries * 1500)
                    .as("the client asked for far more than the bound")
                    .isGreaterThan(16L << 20);
            assertThat(grown).as("direct memory bounded, whatever was asked").isLessThan(16L << 20);
            Awaits.until(
                    "the unwritable connection closed",
                    Duration.ofSeconds(10),
                    () -> d.counter("dns_dropped", "reason", "tcp_unwritable") > 0);
            assertThat(d.counter("dns_dropped", "reason", "tcp_unwritable"))
                    .as("closed once unwritable too long")
                    .isEqualTo(1.0);
        }
    }
}
