package dev.gslb.dns.hostile;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.probe.Awaits;
import dev.gslb.probe.UdpDrops;
import dev.gslb.topology.CidrSet;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A reflection attack on the victim 127.0.0.1: a flood of queries "from" it (here really from it,
 * on loopback, which is the same to the server) asking for a TXT RRset of about 1,100 bytes (the
 * kind of answer an attacker looks for: it just fits the 1232-byte EDNS cap), with RRL off and on
 * (default settings, loopback not exempt): first one static name, then random names under a
 * wildcard with the same TXT RRset (every query a new name). Prints the answers and bytes the
 * victim receives per second and the amplification (bytes out / bytes in). Asserts nothing.
 *   bash bench/run-test-main.sh gslb-dns -- dev.gslb.dns.hostile.SpoofedFloodFigures [seconds] [queries/s]
 */
public final class SpoofedFloodFigures {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int perSecond = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        byte[][] staticName = {query("amplify.test.")};
        byte[][] wildcard = new byte[Math.min(seconds * perSecond, 1 << 20)][];
        Random random = new Random(1);
        for (int i = 0; i < wildcard.length; i++) {
            wildcard[i] = query(label(random) + ".wild.amplify.test.");
        }
        RateLimitSettings notExempt =
                RateLimitSettings.DEFAULTS.withExempt(CidrSet.parse(List.of("192.0.2.0/24"), "exempt"));
        System.out.printf("spoofed flood: %d queries/s for %d s, TXT with EDNS 4096%n", perSecond, seconds);
        System.out.printf("%-44s %10s %10s %12s %14s%n", "", "answers/s", "slipped/s", "bytes out/s", "amplification");
        AnswerSettings off = AnswerSettings.DEFAULTS.withRateLimit(notExempt.withRate(0));
        AnswerSettings on = AnswerSettings.DEFAULTS.withRateLimit(notExempt);
        String s = "amplify.test (" + staticName[0].length + " B)";
        flood(s + ", RRL off", off, staticName, seconds, perSecond);
        flood(s + ", RRL on", on, staticName, seconds, perSecond);
        String w = "random.wild.amplify.test (" + wildcard[0].length + " B)";
        flood(w + ", RRL off", off, wildcard, seconds, perSecond);
        flood(w + ", RRL on", on, wildcard, seconds, perSecond);
        System.out.println("(RRL on: 200 answers/s per class, slip 2, window 15 s)");
    }

    private static byte[] query(String name) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.TXT, DClass.IN));
        q.addRecord(new OPTRecord(4096, 0, 0), Section.ADDITIONAL);
        return q.toWire();
    }

    /** Ten random letters: every query of the wildcard flood asks a name never asked before. */
    private static String label(Random random) {
        char[] c = new char[10];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }

    /** A zone whose apex and wildcard each hold four 255-byte TXT strings: about 1,100 bytes of answer. */
    private static Authority amplifier() throws Exception {
        String text = "\"" + "x".repeat(255) + "\" ";
        String zone = "$TTL 300\n@ SOA ns h 1 3600 900 604800 300\n@ NS ns\nns A 192.0.2.53\n@ TXT " + text.repeat(4)
                + "\n*.wild TXT " + text.repeat(4) + "\n";
        return new Authority(
                List.of(ZoneFile.parse(
                        "amplify.test",
                        new ByteArrayInputStream(zone.getBytes(StandardCharsets.US_ASCII)),
                        Name.fromString("amplify.test."))),
                List.of());
    }

    private static void flood(String what, AnswerSettings settings, byte[][] queries, int seconds, int perSecond)
            throws Exception {
        try (ExampleDeployment d = new ExampleDeployment(ExampleDeployment.listener(1), settings, amplifier());
                DatagramChannel victim = DatagramChannel.open()) {
            victim.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
            victim.bind(new InetSocketAddress("127.0.0.1", 0));
            AtomicLong answers = new AtomicLong();
            AtomicLong truncated = new AtomicLong();
            AtomicLong bytes = new AtomicLong();
            Thread receiver = Thread.ofPlatform().daemon().start(() -> {
                ByteBuffer b = ByteBuffer.allocate(65_536);
                try {
                    for (; ; ) {
                        b.clear();
                        victim.receive(b);
                        bytes.addAndGet(b.position());
                        (((b.get(2) & 0x02) != 0) ? truncated : answers).incrementAndGet();
                    }
                } catch (Exception closed) {
                    // the channel was closed: done
                }
            });
            long sent = 0;
            long in = 0;
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long due = (System.nanoTime() - start) * perSecond / 1_000_000_000L;
                while (sent < due) {
                    byte[] q = queries[(int) (sent % queries.length)];
                    victim.send(ByteBuffer.wrap(q), d.address());
                    in += q.length;
                    sent++;
                }
                Thread.onSpinWait();
            }
            // every query dealt with (or dropped by the kernel at the server's socket), then every answer
            // sent received (or dropped at the victim's): the figures are read once nothing is in flight
            int server = d.address().getPort();
            int port = ((InetSocketAddress) victim.getLocalAddress()).getPort();
            long asked = sent;
            Awaits.until(
                    "the server deals with every query",
                    Duration.ofSeconds(60),
                    () -> HostileTrafficTest.counted(d) + UdpDrops.at(server) >= asked);
            double out = HostileTrafficTest.counted(d) - d.counter("dns_rate_limited", "action", "dropped");
            Awaits.until(
                    "the victim receives every answer sent",
                    Duration.ofSeconds(60),
                    () -> answers.get() + truncated.get() + UdpDrops.at(port) >= out);
            double s = seconds;
            System.out.printf(
                    "%-44s %10.0f %10.0f %12.0f %13.2fx   (%d sent, %d answered in full, %.0f rate-limited)%n",
                    what,
                    answers.get() / s,
                    truncated.get() / s,
                    bytes.get() / s,
                    (double) bytes.get() / in,
                    sent,
                    answers.get(),
                    d.counter("dns_rate_limited", "action", "dropped")
                            + d.counter("dns_rate_limited", "action", "slipped"));
            victim.close();
            receiver.join(1000);
        }
    }
}
