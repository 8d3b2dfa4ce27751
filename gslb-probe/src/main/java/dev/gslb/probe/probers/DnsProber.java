package dev.gslb.probe.probers;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.ReverseMap;
import org.xbill.DNS.Type;

/**
 * DNS_DOT sends a query for "." NS; DNS_REV a PTR query for the LDNS's own address, sent to the
 * LDNS. Both without recursion desired, so a resolver answers from what it has (any rcode counts).
 */
public final class DnsProber implements Prober {
    private final ProbeProtocol protocol;
    private final InetAddress source;
    private final int port;

    private DnsProber(ProbeProtocol protocol, InetAddress source, int port) {
        this.protocol = protocol;
        this.source = source;
        this.port = port;
    }

    public static DnsProber dot(InetAddress source, int port) {
        return new DnsProber(ProbeProtocol.DNS_DOT, source, port);
    }

    public static DnsProber rev(InetAddress source, int port) {
        return new DnsProber(ProbeProtocol.DNS_REV, source, port);
    }

    @Override
    public ProbeProtocol protocol() {
        return protocol;
    }

    @Override
    public Sample sample(InetAddress target, Duration timeout) {
        return UdpExchange.exchange(source, target, port, query(target), timeout, UdpExchange.DNS_REPLY);
    }

    @Override
    public Series series(InetAddress target) {
        return new UdpExchange.Series(source, target, port, () -> query(target), UdpExchange.DNS_REPLY);
    }

    byte[] query(InetAddress target) {
        Name name = protocol == ProbeProtocol.DNS_DOT ? Name.root : ReverseMap.fromAddress(target);
        int type = protocol == ProbeProtocol.DNS_DOT ? Type.NS : Type.PTR;
        Message m = Message.newQuery(Record.newRecord(name, type, DClass.IN));
        m.getHeader().setID(ThreadLocalRandom.current().nextInt(65536));
        m.getHeader().unsetFlag(org.xbill.DNS.Flags.RD);
        return m.toWire();
    }
}
