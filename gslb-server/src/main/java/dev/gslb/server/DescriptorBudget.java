package dev.gslb.server;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.gslb.config.GslbConfig;
import java.lang.management.ManagementFactory;

/**
 * Whether the process's descriptor limit holds everything the listeners may open at once, with a
 * reserve for the rest (probes, monitors, the H2 file, the JVM's own): each listener caps its
 * connections, so when the sum fits, no flood on one port can take the descriptors another needs
 * (DNS over TCP keeps its share however many admin or sync connections are tried). Checked at start
 * and logged as a warning with the fix when it does not fit.
 */
record DescriptorBudget(long limit, long dns, long admin, long sync, long reserve) {
    /** Probes at once, monitors, the store, logs, the JVM's jars and its own: what is not a listener. */
    static final long RESERVE = 256;
    /** Peers a group is planned for: the connections this instance dials, one each. */
    static final long PEERS = 32;

    static DescriptorBudget of(GslbConfig c) {
        long limit = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount()
                : Long.MAX_VALUE;
        var l = c.dns();
        long addresses = l.addresses().size();
        long dns = addresses * (l.tcpMaxConnections() + l.effectiveThreads() + 1);
        long admin = c.admin().limits().maxConnections() + 1L;
        long sync = c.sync().listen().size() * (1L + c.sync().limits().maxConnections()) + PEERS;
        return new DescriptorBudget(
                limit, dns, admin, sync, RESERVE + c.probing().probes().concurrency());
    }

    long needed() {
        return dns + admin + sync + reserve;
    }

    boolean fits() {
        return needed() <= limit;
    }

    /** The warning: what may be open, what the limit is, and what to change. */
    String warning() {
        return "descriptors: this process may open " + limit + " (ulimit -n, LimitNOFILE), but its listeners may"
                + " hold " + (needed() - reserve) + " at once (DNS over TCP " + dns + ", admin " + admin + ", sync "
                + sync
                + ") and it needs " + reserve + " more for probes and files: under a flood of connections one port"
                + " could starve another. Raise the limit (the systemd unit sets LimitNOFILE=65536; docker run"
                + " --ulimit nofile=65536) or lower dns.tcp-max-connections / admin.max-connections";
    }
}
