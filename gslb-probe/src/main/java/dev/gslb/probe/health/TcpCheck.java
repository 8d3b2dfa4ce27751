package dev.gslb.probe.health;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** Up when a TCP connection to the port is accepted. */
public record TcpCheck(int port) implements Check {
    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), (int) Math.max(1, timeout.toMillis()));
            return CheckResult.ok("tcp " + port + " accepted");
        } catch (IOException e) {
            return CheckResult.fail("tcp " + port + ": " + e.getMessage());
        }
    }
}
