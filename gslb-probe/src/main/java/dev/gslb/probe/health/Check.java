package dev.gslb.probe.health;

import java.net.InetAddress;
import java.time.Duration;

/** One kind of health check (icmp, tcp, http/https, external). Returns null when it cannot run at all. */
public interface Check {
    CheckResult run(InetAddress address, Duration timeout);
}
