package dev.gslb.dns.hostile;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.rrl.RateLimitSettings;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.topology.CidrSet;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
 * kind of answer an attacker looks for: it just fits the 1232-byte EDNS cap),
 * with RRL off and on (default settings, loopback not exempt). Prints the answers and bytes the
 * victim receives per second and the amplification (bytes out / bytes in). Asserts nothing.
 *   bash bench/run-test-main.sh gslb-dns -- dev.gslb.dns.hostile.SpoofedFloodFigures [seconds] [queries/s]
 */
public final class SpoofedFloodFigures {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int perSecond = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        Message q = Message.newQuery(Record.newRecord(Name.fromString("amplify.test."), Type.TXT, DClass.IN));
        q.addRecord(new OPTRecord(4096, 0, 0), Section.ADDITIONAL);
        byte[] query = q.toWire();
        RateLimitSettings notExempt =
                RateLimitSettings.DEFAULTS.withExempt(CidrSet.parse(List.of("192.0.2.0/24"), "exempt"));
        System.out.printf(
                "spoofed flood: %d queries/s for %d s, each %d bytes (amplify.test TXT, EDNS 4096)%n",
                perSecond, seconds, query.length);
        System.out.printf("%-26s %12s %12s %14s %14s%n", "", "answers/s", "slipped/s", "bytes out/s", "amplification");
        flood("RRL off", AnswerSettings.DEFAULTS.withRateLimit(notExempt.withRate(0)), query, seconds, perSecond);
        flood("RRL on (200/s, slip 2)", AnswerSettings.DEFAULTS.withRateLimit(notExempt), query, seconds, perSecond);
    }

    /** A zone whose apex holds four 255-byte TXT strings: about 1,100 bytes of answer. */
    private static Authority amplifier() throws Exception {
        String text = "\"" + "x".repeat(255) + "\" ";
        String zone =
                "$TTL 300\n@ SOA ns h 1 3600 900 604800 300\n@ NS ns\nns A 192.0.2.53\n@ TXT " + text.repeat(4) + "\n";
        return new Authority(
                List.of(ZoneFile.parse(
                        "amplify.test",
                        new ByteArrayInputStream(zone.getBytes(StandardCharsets.US_ASCII)),
                        Name.fromString("amplify.test."))),
                List.of());
    }

    private static void flood(String what, AnswerSettings settings, byte[] query, int seconds, int perSecond)
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
            ByteBuffer out = ByteBuffer.wrap(query);
            long sent = 0;
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long due = (System.nanoTime() - start) * perSecond / 1_000_000_000L;
                while (sent < due) {
                    out.rewind();
                    victim.send(out, d.address());
                    sent++;
                }
                Thread.onSpinWait();
            }
            Thread.sleep(500);
            double s = seconds;
            long in = sent * query.length;
            System.out.printf(
                    "%-26s %12.0f %12.0f %14.0f %13.2fx   (%d queries sent, %.0f counted by the server as rate-limited)%n",
                    what,
                    answers.get() / s,
                    truncated.get() / s,
                    bytes.get() / s,
                    (double) bytes.get() / in,
                    sent,
                    d.counter("dns_rate_limited", "action", "dropped")
                            + d.counter("dns_rate_limited", "action", "slipped"));
            victim.close();
            receiver.join(1000);
        }
    }
}
