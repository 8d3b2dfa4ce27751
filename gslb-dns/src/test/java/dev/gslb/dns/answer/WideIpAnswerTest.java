package dev.gslb.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.dns.server.ExampleDeployment;
import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/** A wide IP's addresses as the one writer puts them: by its own name, for ANY, at the end of a CNAME chain. */
class WideIpAnswerTest {
    private final Responder responder;

    WideIpAnswerTest() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        responder = new Responder(
                ExampleDeployment.authority(),
                ExampleDeployment.resolver(registry),
                new InstanceIdentity("answers", "CNC"),
                new DnsMetrics(registry),
                AnswerSettings.DEFAULTS);
    }

    @Test
    void anyForTheWideIpIsAnsweredWithItsAddresses() throws Exception {
        Message m = ask("www.example.com.", Type.ANY);
        assertThat(m.getRcode()).isEqualTo(Rcode.NOERROR);
        assertThat(m.getHeader().getFlag(Flags.AA)).isTrue();
        assertThat(m.getSection(Section.ANSWER))
                .extracting(Record::getName, Record::getType)
                .containsOnly(org.assertj.core.groups.Tuple.tuple(Name.fromString("www.example.com."), Type.A));
    }

    @Test
    void theAddressesAtTheEndOfAChainAreOwnedByTheWideIpsNameAsTheChainSpellsIt() throws Exception {
        Message m = ask("SHOP.Example.COM.", Type.A);
        assertThat(m.getHeader().getFlag(Flags.AA)).isTrue();
        var answer = m.getSection(Section.ANSWER);
        assertThat(answer).extracting(Record::getType).containsExactly(Type.CNAME, Type.A);
        assertThat(answer.get(0).getName().toString()).isEqualTo("SHOP.Example.COM.");
        Name target = ((org.xbill.DNS.CNAMERecord) answer.get(0)).getTarget();
        assertThat(target).isEqualTo(Name.fromString("www.example.com."));
        assertThat(answer.get(1).getName().toString())
                .as("a pointer to the CNAME's target (which points into the question), not the name again")
                .isEqualTo(target.toString())
                .isEqualTo("www.Example.COM.");
    }

    private Message ask(String name, int type) throws Exception {
        byte[] q = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN))
                .toWire();
        ByteBuf out = Unpooled.buffer(4096);
        Address client = Address.parse("127.0.0.1");
        assertThat(responder.respond(q, q.length, Transport.UDP, client.hi(), client.lo(), out))
                .isTrue();
        byte[] wire = new byte[out.readableBytes()];
        out.getBytes(0, wire);
        return new Message(wire);
    }
}
