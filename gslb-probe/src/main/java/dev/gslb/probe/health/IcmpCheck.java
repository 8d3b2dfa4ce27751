package dev.gslb.probe.health;

import dev.gslb.probe.probers.IcmpProber;
import java.net.InetAddress;
import java.time.Duration;

/** Up when an ICMP echo is answered; cannot run (null) where ICMP sockets are not allowed. */
public record IcmpCheck(IcmpProber icmp) implements Check {
    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        if (!icmp.available()) {
            return null;
        }
        var s = icmp.sample(address, timeout);
        return s.replied()
                ? CheckResult.ok("echo reply in " + s.rttMicros() + " us")
                : CheckResult.fail("no echo reply");
    }
}
