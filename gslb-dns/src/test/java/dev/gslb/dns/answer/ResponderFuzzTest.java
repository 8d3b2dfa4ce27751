package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.gslb.dns.server.ExampleDeployment;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.GenericEDNSOption;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/** Random and mutated packets: the responder never throws and whatever it sends parses. */
class ResponderFuzzTest {
    @Test
    void anyByteStringGetsAParseableAnswerOrNone() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Responder responder = new Responder(
                ExampleDeployment.authority(),
                ExampleDeployment.resolver(registry),
                new InstanceIdentity("fuzz", "CNC"),
                new DnsMetrics(registry),
                AnswerSettings.DEFAULTS);
        List<byte[]> seeds = List.of(
                query("www.example.com.", Type.A, false),
                query("api.example.com.", Type.MX, true),
                query("x.wild.example.com.", Type.TXT, true),
                query("sub.example.com.", Type.NS, false));
        Random random = new Random(7);
        ByteBuf out = Unpooled.buffer(65535);
        for (int i = 0; i < 200_000; i++) {
            byte[] packet;
            if (i % 4 == 0) {
                packet = new byte[random.nextInt(80)];
                random.nextBytes(packet);
            } else {
                byte[] seed = seeds.get(random.nextInt(seeds.size()));
                packet = java.util.Arrays.copyOf(seed, Math.max(1, seed.length + random.nextInt(9) - 4));
                for (int flips = random.nextInt(4); flips >= 0; flips--) {
                    packet[random.nextInt(packet.length)] = (byte) random.nextInt(256);
                }
            }
            out.clear();
            Transport t = i % 3 == 0 ? Transport.TCP : Transport.UDP;
            byte[] p = packet;
            assertThatCode(() -> responder.respond(
                            p,
                            p.length,
                            t,
                            dev.gslb.topology.Cidr.hiOf(InetAddress.getLoopbackAddress()),
                            dev.gslb.topology.Cidr.loOf(InetAddress.getLoopbackAddress()),
                            out))
                    .doesNotThrowAnyException();
            if (out.readableBytes() > 0) {
                byte[] wire = new byte[out.readableBytes()];
                out.getBytes(0, wire);
                assertThatCode(() -> new Message(wire))
                        .as("answer to packet %d parses", i)
                        .doesNotThrowAnyException();
                if (t == Transport.UDP) {
                    assertThat(wire.length).isLessThanOrEqualTo(AnswerSettings.DEFAULT_EDNS_UDP_SIZE);
                }
            }
        }
        assertThat(registry.get("dns_dropped")
                        .tag("reason", "internal_error")
                        .counter()
                        .count())
                .isZero();
    }

    private static byte[] query(String name, int type, boolean edns) throws Exception {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
        if (edns) {
            q.addRecord(
                    new OPTRecord(1232, 0, 0, 0, List.of(new GenericEDNSOption(EDNSOption.Code.NSID, new byte[0]))),
                    Section.ADDITIONAL);
        }
        return q.toWire();
    }
}
