package dev.gslb.probe.probers;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * UDP: one datagram to a configured port (default 53); anything that comes back counts, an ICMP
 * port-unreachable included. The payload is a DNS header with no question, which a DNS server
 * answers (FORMERR or NOERROR) and anything else ignores or refuses.
 */
public final class UdpProber implements Prober {
    private final InetAddress source;
    private final int port;

    public UdpProber(InetAddress source, int port) {
        this.source = source;
        this.port = port;
    }

    @Override
    public ProbeProtocol protocol() {
        return ProbeProtocol.UDP;
    }

    @Override
    public Sample sample(InetAddress target, Duration timeout) {
        return UdpExchange.exchange(source, target, port, header(), timeout, UdpExchange.ANY_REPLY);
    }

    @Override
    public Series series(InetAddress target) {
        return new UdpExchange.Series(source, target, port, UdpProber::header, UdpExchange.ANY_REPLY);
    }

    private static byte[] header() {
        byte[] header = new byte[12];
        int id = ThreadLocalRandom.current().nextInt(65536);
        header[0] = (byte) (id >> 8);
        header[1] = (byte) id;
        return header;
    }
}
