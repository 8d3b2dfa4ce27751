package dev.gslb.probe.probers;

import dev.gslb.probe.ProbeProtocol;
import dev.gslb.probe.Prober;
import dev.gslb.probe.Sample;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** TCP: a connection attempt to port 53; an accept and a reset (RST) both count as replies. */
public final class TcpProber implements Prober {
    private final InetAddress source;
    private final int port;

    public TcpProber(InetAddress source, int port) {
        this.source = source;
        this.port = port;
    }

    @Override
    public ProbeProtocol protocol() {
        return ProbeProtocol.TCP;
    }

    @Override
    public Sample sample(InetAddress target, Duration timeout) {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(source, 0));
            long start = System.nanoTime();
            try {
                s.connect(new InetSocketAddress(target, port), (int) Math.max(1, timeout.toMillis()));
                return Sample.reply(start);
            } catch (ConnectException e) {
                // "Connection refused" is the RST; unreachable networks are no reply from the target.
                return e.getMessage() != null && e.getMessage().contains("refused")
                        ? Sample.reply(start)
                        : Sample.NO_REPLY;
            } catch (SocketTimeoutException e) {
                return Sample.NO_REPLY;
            }
        } catch (IOException e) {
            return Sample.NO_REPLY;
        }
    }
}
