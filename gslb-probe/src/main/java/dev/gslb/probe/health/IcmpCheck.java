package dev.gslb.probe.health;

import dev.gslb.probe.probers.IcmpProber;
import dev.gslb.settings.SettingsTable;
import java.net.InetAddress;
import java.time.Duration;

/**
 * Up when an ICMP echo is answered; cannot run (null) where ICMP sockets are not allowed. The ICMP
 * socket is opened at the first check, not when the configuration is read (`config check` opens
 * nothing).
 */
public final class IcmpCheck implements Check {
    /** An {@code icmp} monitor has no keys of its own. */
    public static final SettingsTable<IcmpCheck> SETTINGS = SettingsTable.of(IcmpCheck.class, v -> new IcmpCheck());

    private volatile IcmpProber icmp;

    @Override
    public CheckResult run(InetAddress address, Duration timeout) {
        IcmpProber p = prober();
        if (!p.available()) {
            return null;
        }
        var s = p.sample(address, timeout);
        return s.replied()
                ? CheckResult.ok("echo reply in " + s.rttMicros() + " us")
                : CheckResult.fail("no echo reply");
    }

    private IcmpProber prober() {
        IcmpProber p = icmp;
        if (p == null) {
            synchronized (this) {
                if (icmp == null) {
                    icmp = new IcmpProber(InetAddress.ofLiteral("0.0.0.0"));
                }
                p = icmp;
            }
        }
        return p;
    }

    @Override
    public String toString() {
        return "icmp";
    }

    /** Every ICMP check is the same check (a reload that keeps one keeps its state). */
    @Override
    public boolean equals(Object o) {
        return o instanceof IcmpCheck;
    }

    @Override
    public int hashCode() {
        return IcmpCheck.class.hashCode();
    }
}
