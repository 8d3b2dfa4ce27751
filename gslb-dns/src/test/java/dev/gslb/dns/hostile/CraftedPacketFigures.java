package dev.gslb.dns.hostile;

import dev.gslb.dns.answer.AnswerSettings;
import dev.gslb.dns.answer.DnsMetrics;
import dev.gslb.dns.answer.InstanceIdentity;
import dev.gslb.dns.answer.Responder;
import dev.gslb.dns.answer.Transport;
import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.probe.Awaits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * Server CPU per crafted datagram (the pointer-ladder query of {@link CraftedPackets}, at 64 KiB
 * and cut to 4 KiB), against a normal query, on one event loop. Prints figures; asserts nothing.
 *   bash bench/run-test-main.sh gslb-dns -- dev.gslb.dns.hostile.CraftedPacketFigures [count]
 */
public final class CraftedPacketFigures {
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        byte[] normal = Message.newQuery(Record.newRecord(Name.fromString("example.com."), Type.SOA, DClass.IN))
                .toWire();
        System.out.println("In the responder alone (no sockets), average over many calls:");
        Responder responder = new Responder(
                ExampleDeployment.authority(),
                ExampleDeployment.resolver(new SimpleMeterRegistry()),
                new InstanceIdentity("figures", "CNC"),
                new DnsMetrics(new SimpleMeterRegistry()),
                AnswerSettings.DEFAULTS);
        for (int round = 0; round < 2; round++) { // the first round warms up the JIT
            respond(responder, "normal SOA query", normal, 200_000, round == 1);
            respond(responder, "pointer ladder, 4 KiB", CraftedPackets.pointerChain(4096), 20_000, round == 1);
            respond(responder, "pointer ladder, 64 KiB", CraftedPackets.pointerChain(65_000), 20_000, round == 1);
        }
        System.out.println("Over UDP to one event loop, one packet at a time (syscalls and wake-ups included):");
        try (ExampleDeployment d = new ExampleDeployment(1);
                DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(60_000);
            measure(d, s, "normal SOA query", normal, 2000); // also warms the server up
            measure(d, s, "normal SOA query", normal, 2000);
            measure(d, s, "pointer ladder, 4 KiB", CraftedPackets.pointerChain(4096), count);
            measure(d, s, "pointer ladder, 64 KiB", CraftedPackets.pointerChain(65_000), count);
        }
    }

    private static void respond(Responder responder, String what, byte[] packet, int count, boolean print) {
        ByteBuf out = Unpooled.buffer(65535);
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            out.clear();
            responder.respond(
                    packet,
                    packet.length,
                    Transport.UDP,
                    dev.gslb.topology.Cidr.hiOf(InetAddress.getLoopbackAddress()),
                    dev.gslb.topology.Cidr.loOf(InetAddress.getLoopbackAddress()),
                    out);
        }
        long ns = System.nanoTime() - t0;
        if (print) {
            System.out.printf("%-24s %6d bytes: %10.2f us per packet%n", what, packet.length, ns / 1e3 / count);
        }
    }

    /** UDP packets the server has dealt with: answered, slipped, or dropped for any reason. */
    private static double dealtWith(ExampleDeployment d) {
        double dropped = 0;
        for (var c : d.registry.find("dns_dropped").counters()) {
            dropped += c.count();
        }
        return HostileTrafficTest.counted(d) + dropped;
    }

    /** CPU time of the DNS event-loop threads (netty names them after their group). */
    private static long eventLoopCpu() {
        var mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("EventLoopGroup")) {
                sum += mx.getThreadCpuTime(info.getThreadId());
            }
        }
        return sum;
    }

    /** Sends {@code packet} {@code count} times, one at a time, and prints the server's CPU per packet. */
    private static void measure(ExampleDeployment d, DatagramSocket s, String what, byte[] packet, int count)
            throws Exception {
        long cpu0 = eventLoopCpu();
        double before = dealtWith(d);
        int answered = 0;
        s.setSoTimeout(2000);
        for (int i = 0; i < count; i++) {
            s.send(new DatagramPacket(packet, packet.length, d.address()));
            try {
                s.receive(new DatagramPacket(new byte[4096], 4096));
                answered++;
            } catch (SocketTimeoutException e) {
                s.setSoTimeout(5); // dropped unanswered: pace the rest by a short wait
            }
        }
        Awaits.until(
                "the server deals with the " + count + " packets",
                Duration.ofSeconds(30),
                () -> dealtWith(d) - before >= count);
        long cpu = eventLoopCpu() - cpu0;
        int qd = ((packet[4] & 0xFF) << 8) | (packet[5] & 0xFF);
        System.out.printf(
                "%-24s %6d bytes, QDCOUNT %5d: %6d sent, %6d answered, event-loop CPU %8.1f us per packet%n",
                what, packet.length, qd, count, answered, cpu / 1e3 / count);
    }
}
