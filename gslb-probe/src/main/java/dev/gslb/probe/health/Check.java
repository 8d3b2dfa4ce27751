package dev.gslb.probe.health;

import java.net.InetAddress;
import java.time.Duration;

/** One kind of health check (icmp, tcp, http/https, external). Returns null when it cannot run at all. */
public interface Check {
    CheckResult run(InetAddress address, Duration timeout);

    /**
     * The same check on {@code port} instead of its own (a server's {@code translation:} gives the
     * port its service listens on behind the balancer); a check that connects to no port is itself.
     */
    default Check atPort(int port) {
        return this;
    }
}
